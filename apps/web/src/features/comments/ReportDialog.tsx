import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ENGAGEMENT } from '@kathamala/domain';
import { reportComment } from '../../api/engagement.ts';
import { isApiError } from '../../api/client.ts';
import { useI18n, type MessageKey } from '../../i18n/index.tsx';
import styles from './comments.module.css';

/**
 * The reasons offered; the editors read the English words whatever the reader's language, so the
 * queue reads the same for everyone.
 */
export const REPORT_REASONS: { key: MessageKey; reason: string }[] = [
  { key: 'report.spam', reason: 'Spam or advertising' },
  { key: 'report.abuse', reason: 'Harassment or abuse' },
  { key: 'report.hate', reason: 'Hate speech' },
  { key: 'report.spoiler', reason: 'Spoiler' },
  { key: 'report.other', reason: 'Something else' },
];

/** What is sent: the chosen reason, and the reader's own words after it when they wrote some. */
export const reportReason = (reason: string, details: string): string => {
  const extra = details.trim();
  return (extra ? `${reason}: ${extra}` : reason).slice(0, ENGAGEMENT.reportReasonChars);
};

/**
 * A small modal dialog asking why a comment is reported; says thanks once it is in the queue.
 * `send` and `title` report something else the same way (a community post or profile).
 */
export function ReportDialog(props: {
  commentId?: number;
  send?: (reason: string) => Promise<unknown>;
  title?: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [choice, setChoice] = useState(0);
  const [details, setDetails] = useState('');
  const [state, setState] = useState<'form' | 'sending' | 'done'>('form');
  const [error, setError] = useState('');
  const { onClose } = props;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setState('sending');
    setError('');
    const reason = reportReason(REPORT_REASONS[choice]!.reason, details);
    const sent = props.send ? props.send(reason) : reportComment(props.commentId ?? 0, reason);
    sent.then(
      () => setState('done'),
      (err: unknown) => {
        setState('form');
        setError(isApiError(err) && err.message ? err.message : t('common.error'));
      },
    );
  };

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onCancel={onClose}
    >
      <h2 id={`${id}-title`} className={styles.dialogTitle}>
        {props.title ?? t('report.title')}
      </h2>
      {state === 'done' ? (
        <>
          <p role="status">{t('report.thanks')}</p>
          <div className={styles.dialogActions}>
            <button type="button" className={styles.send} onClick={onClose} autoFocus>
              {t('report.close')}
            </button>
          </div>
        </>
      ) : (
        <form method="post" onSubmit={submit} className={styles.dialogForm}>
          <fieldset className={styles.reasons}>
            <legend className="visually-hidden">{t('report.why')}</legend>
            <p aria-hidden="true">{t('report.why')}</p>
            {REPORT_REASONS.map((r, i) => (
              <label key={r.key} className={styles.reason}>
                <input
                  type="radio"
                  name={`${id}-reason`}
                  checked={choice === i}
                  onChange={() => setChoice(i)}
                />
                {t(r.key)}
              </label>
            ))}
          </fieldset>
          <label className={styles.detailsLabel}>
            {t('report.details')}
            <textarea
              className={styles.textarea}
              rows={2}
              value={details}
              maxLength={ENGAGEMENT.reportReasonChars - 40}
              onChange={(e) => setDetails(e.target.value)}
            />
          </label>
          {error && (
            <p className={styles.boxError} role="alert">
              {error}
            </p>
          )}
          <div className={styles.dialogActions}>
            <button type="button" className={styles.quiet} onClick={onClose}>
              {t('report.cancel')}
            </button>
            <button
              type="submit"
              className={styles.send}
              disabled={state === 'sending'}
              aria-busy={state === 'sending' || undefined}
            >
              {t('report.send')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
