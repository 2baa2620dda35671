import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { COMMUNITY } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { useI18n } from '../../i18n/index.tsx';
import styles from '../comments/comments.module.css';

/**
 * A small modal dialog asking for a reason and sending it: an editor removing a post, or
 * rejecting an item of the queue. A failure shows the server's sentence and keeps the text.
 */
export function ReasonDialog(props: {
  title: string;
  label: string;
  submitLabel: string;
  send: (reason: string) => Promise<unknown>;
  onClose: () => void;
  /** Whether a reason must be given (the button waits for one). */
  required?: boolean;
}) {
  const { t } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const { onClose } = props;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setError('');
    props.send(reason.trim()).then(onClose, (err: unknown) => {
      setSending(false);
      setError(isApiError(err) && err.message ? err.message : t('common.error'));
    });
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
        {props.title}
      </h2>
      <form method="post" onSubmit={submit} className={styles.dialogForm}>
        <label className={styles.detailsLabel}>
          {props.label}
          <textarea
            className={styles.textarea}
            rows={3}
            value={reason}
            maxLength={COMMUNITY.reasonChars}
            required={props.required ?? true}
            autoFocus
            onChange={(e) => setReason(e.target.value)}
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
            disabled={sending || ((props.required ?? true) && !reason.trim())}
            aria-busy={sending || undefined}
          >
            {props.submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
