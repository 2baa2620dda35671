import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { COMMUNITY } from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import { useI18n } from '../i18n/index.tsx';
import controls from '../features/comments/comments.module.css';
import styles from './ReasonDialog.module.css';

/** Reasons to pick one of, as radios before the text box; the text box then adds to the choice. */
export type ReasonChoices = {
  /** The question the radios answer (the group's name). */
  question: string;
  options: { label: string; reason: string }[];
  /** What is sent: the chosen reason with the (untrimmed) text. */
  compose: (reason: string, text: string) => string;
};

/**
 * The one small modal dialog asking for a reason (or a line) and sending it: reporting a response,
 * post or profile, an editor removing a post, rejecting an item of the review queue, sharing a
 * post. Labelled by its title; Escape and Cancel close it, and the focus goes back to what opened it. A failure shows the server's sentence and keeps the text. With `thanks` it says that
 * once sent (with a Close button) instead of closing.
 */
export function ReasonDialog(props: {
  title: string;
  /** The text box's label. */
  label: string;
  submitLabel: string;
  send: (reason: string) => Promise<unknown>;
  onClose: () => void;
  /** Whether text must be given (the button waits for it); true unless said. */
  required?: boolean;
  /** Characters the text box takes; a community reason's unless said. */
  maxLength?: number;
  /** The text box's height in lines; 3 unless said. */
  rows?: number;
  choices?: ReasonChoices;
  thanks?: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [choice, setChoice] = useState(0);
  const [text, setText] = useState('');
  const [state, setState] = useState<'form' | 'sending' | 'done'>('form');
  const [error, setError] = useState('');
  const { onClose, choices } = props;
  const required = props.required ?? true;
  const sending = state === 'sending';

  useEffect(() => {
    const d = dialog.current;
    const opener = document.activeElement;
    if (d && !d.open) d.showModal();
    return () => {
      // Taken out of the page when it closes, the dialog would leave the focus on the body:
      // it goes back to what opened the dialog, when that is still there.
      const lost = document.activeElement === document.body || d?.contains(document.activeElement);
      d?.close();
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setState('sending');
    setError('');
    const reason = choices ? choices.compose(choices.options[choice]!.reason, text) : text.trim();
    props.send(reason).then(
      () => (props.thanks === undefined ? onClose() : setState('done')),
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
      <h2 id={`${id}-title`} className={styles.title}>
        {props.title}
      </h2>
      {state === 'done' ? (
        <>
          <p role="status">{props.thanks}</p>
          <div className={styles.actions}>
            <button type="button" className={controls.send} onClick={onClose} autoFocus>
              {t('report.close')}
            </button>
          </div>
        </>
      ) : (
        <form method="post" onSubmit={submit} className={styles.form}>
          {choices && (
            <fieldset className={styles.choices}>
              <legend className="visually-hidden">{choices.question}</legend>
              <p aria-hidden="true">{choices.question}</p>
              {choices.options.map((o, i) => (
                <label key={o.reason} className={styles.choice}>
                  <input
                    type="radio"
                    name={`${id}-reason`}
                    checked={choice === i}
                    onChange={() => setChoice(i)}
                  />
                  {o.label}
                </label>
              ))}
            </fieldset>
          )}
          <label className={styles.label}>
            {props.label}
            <textarea
              className={controls.textarea}
              rows={props.rows ?? 3}
              value={text}
              maxLength={props.maxLength ?? COMMUNITY.reasonChars}
              required={required}
              // With reasons to choose, the first one takes focus (showModal's own choice).
              autoFocus={!choices}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          {error && (
            <p className={controls.boxError} role="alert">
              {error}
            </p>
          )}
          <div className={styles.actions}>
            <button type="button" className={controls.quiet} onClick={onClose}>
              {t('report.cancel')}
            </button>
            <button
              type="submit"
              className={controls.send}
              disabled={sending || (required && !text.trim())}
              aria-busy={sending || undefined}
            >
              {props.submitLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
