import { useEffect, useRef } from 'react';
import { SINGLISH_HELP } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import styles from './singlish.module.css';

/** The Singlish key table in a modal dialog (the top layer: no box clips it). */
export default function SinglishHelp(props: { onClose: () => void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.help}
      aria-labelledby="singlish-help-title"
      onClose={props.onClose}
      onClick={(e) => {
        // A click on the backdrop (the dialog itself, outside its box) closes it.
        if (e.target === e.currentTarget) ref.current?.close();
      }}
    >
      <div className={styles.helpBox}>
        <div className={styles.helpHead}>
          <h2 id="singlish-help-title" className={styles.helpTitle}>
            {t('singlish.helpTitle')}
          </h2>
          <button
            type="button"
            className={styles.close}
            aria-label={t('singlish.close')}
            onClick={() => ref.current?.close()}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <p className={styles.helpText}>{t('singlish.helpIntro')}</p>
        <dl className={styles.keys}>
          {SINGLISH_HELP.map((k) => {
            // "ආ · ammaa අම්මා": the letter, then a word typed with the key and what it gives.
            const [letter, example] = k.sinhala.split(' · ');
            return (
              <div key={k.keys} className={styles.key}>
                <dt>
                  <kbd>{k.keys}</kbd>
                </dt>
                <dd lang="si">
                  <span className={styles.letter}>{letter}</span>
                  {example && <span className={styles.example}>{example}</span>}
                </dd>
              </div>
            );
          })}
        </dl>
        <p className={styles.helpText}>{t('singlish.helpUndo')}</p>
      </div>
    </dialog>
  );
}
