import { useEffect, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MEMBERSHIP, MEMBERSHIP_MESSAGES, ResultCode } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { applyAlert, toggleAlert } from '../../api/membership.ts';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import own from './membership.module.css';

interface Toast {
  kind: 'ok' | 'error';
  text: string;
  /** A new toast for every answer, so the same sentence twice is announced twice. */
  serial: number;
}

/**
 * The sentence for a failed toggle. The server's message is the keyword sentence of SPEC.md 8
 * (shown in the UI language when it is that sentence); without an answer, that it never got one.
 */
export function alertFailureText(error: unknown, keyword: string, t: Translate): string {
  if (!isApiError(error) || error.code === ResultCode.network) return t('common.offline');
  if (!error.message || error.message === MEMBERSHIP_MESSAGES.alertFailure(keyword))
    return t('smsAlert.failure', { keyword });
  return error.message;
}

/**
 * The alert-enable panel under the episode (SPEC.md 2), for logged-in readers: one toggle whose
 * state is the server's answer. Enabled and disabled show the 'Alerts' notification for 5 s; a
 * failure shows its message for 10 s and leaves the toggle off (SPEC.md 4, 8).
 */
export function AlertPanel(props: { storyId: number; alertEnabled: boolean; keyword: string }) {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [on, setOn] = useState(props.alertEnabled);
  const [seen, setSeen] = useState(props.alertEnabled);
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<Toast | null>(null);
  const serial = useRef(0);

  // Another episode's answer (or a refetch) brings the server's state in.
  if (seen !== props.alertEnabled) {
    setSeen(props.alertEnabled);
    setOn(props.alertEnabled);
  }

  useEffect(() => {
    if (!toast) return;
    const ms = toast.kind === 'ok' ? MEMBERSHIP.alertMessageMs : MEMBERSHIP.alertFailureMs;
    const timer = setTimeout(() => setToast(null), ms);
    return () => clearTimeout(timer);
  }, [toast]);

  const show = (kind: Toast['kind'], text: string) =>
    setToast({ kind, text, serial: ++serial.current });

  const toggle = () => {
    if (busy) return;
    setBusy(true);
    toggleAlert(props.storyId)
      .then(
        ({ alertEnabled }) => {
          setOn(alertEnabled);
          applyAlert(client, props.storyId, alertEnabled);
          show('ok', t(alertEnabled ? 'smsAlert.enabled' : 'smsAlert.disabled'));
        },
        (error: unknown) => {
          // SPEC.md 4: an error sets it off.
          setOn(false);
          applyAlert(client, props.storyId, false);
          show('error', alertFailureText(error, props.keyword, t));
        },
      )
      .finally(() => setBusy(false));
  };

  const body = (kind: Toast['kind']) =>
    toast?.kind === kind ? (
      <div key={toast.serial} className={`${own.toast} ${kind === 'error' ? own.toastError : ''}`}>
        <p className={own.toastTitle}>{t('smsAlert.notice')}</p>
        <p className={own.toastText}>{toast.text}</p>
        <button
          type="button"
          className={own.toastClose}
          aria-label={t('smsAlert.close')}
          onClick={() => setToast(null)}
        >
          ×
        </button>
      </div>
    ) : null;

  return (
    <section className={own.alertPanel} aria-labelledby={`${id}-title`}>
      <div className={own.alertText}>
        <h2 id={`${id}-title`} className={own.alertTitle}>
          {t('smsAlert.title')}
        </h2>
        <p id={`${id}-help`} className={ui.hint}>
          {t('smsAlert.help')}
        </p>
      </div>
      <button
        type="button"
        className={own.alertToggle}
        aria-pressed={on}
        aria-busy={busy || undefined}
        aria-describedby={`${id}-help`}
        onClick={toggle}
      >
        <span className={own.track} aria-hidden="true" />
        <span>{t('smsAlert.toggle')}</span>
        <span aria-hidden="true" className={own.alertState}>
          {t(on ? 'smsAlert.on' : 'smsAlert.off')}
        </span>
      </button>
      <div className={own.toasts}>
        <div role="status">{body('ok')}</div>
        <div role="alert">{body('error')}</div>
      </div>
    </section>
  );
}
