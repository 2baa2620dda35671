import { useId, useState, type FormEvent } from 'react';
import { FEE_RUPEES_PER_MONTH, SHORT_CODES } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import styles from './reader.module.css';

/**
 * The subscription wall for a members-only story (SPEC.md 2, 9): the fee, joining by SMS with the
 * author's keyword, and the code entry. Verifying the code arrives with the membership work; until
 * then the form checks for an empty code and says the entry is coming soon.
 */
export function SubscriptionWall(props: { keyword: string }) {
  const { t } = useI18n();
  const id = useId();
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
    setMessage(
      code ? { kind: 'info', text: t('sub.soon') } : { kind: 'error', text: t('sub.empty') },
    );
  };

  const keyword = <strong className={styles.keyword}>{props.keyword}</strong>;
  const fill = (text: string, code: string) => {
    const [before, after] = text.replace('{code}', code).split('{keyword}');
    return (
      <>
        {before}
        {keyword}
        {after}
      </>
    );
  };

  return (
    <section
      className={`${styles.wall} ${styles.subscriptionWall}`}
      aria-labelledby="subscription-title"
    >
      <h2 id="subscription-title" className={styles.wallTitle}>
        <span aria-hidden="true" className={styles.wallIcon}>
          ★
        </span>{' '}
        {t('sub.title')}
      </h2>
      <p>{t('sub.fee', { fee: FEE_RUPEES_PER_MONTH })}</p>
      <h3 className={styles.wallSubtitle}>{t('sub.howTitle')}</h3>
      <ul className={styles.smsSteps}>
        <li>{fill(t('sub.howMain'), SHORT_CODES.default)}</li>
        <li>{fill(t('sub.howMobitel'), SHORT_CODES.mobitel)}</li>
      </ul>
      <form className={styles.codeForm} onSubmit={onSubmit} noValidate>
        <div className={ui.field}>
          <label className={ui.label} htmlFor={id}>
            {t('sub.codeLabel')}
          </label>
          <span className={ui.hint} id={`${id}-hint`}>
            {t('sub.codeHelp')}
          </span>
          <div className={styles.codeRow}>
            <input
              id={id}
              name="code"
              className={ui.input}
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-describedby={`${id}-hint ${id}-message`}
              aria-invalid={message?.kind === 'error' || undefined}
            />
            <button type="submit" className={ui.button}>
              {t('sub.submit')}
            </button>
          </div>
        </div>
        <p
          id={`${id}-message`}
          className={message?.kind === 'error' ? ui.fieldError : styles.codeInfo}
          role={message ? 'alert' : undefined}
        >
          {message?.text}
        </p>
      </form>
    </section>
  );
}
