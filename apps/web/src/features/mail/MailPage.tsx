import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { isApiError } from '../../api/client.ts';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { useDocumentTitle } from '../../useDocumentTitle.ts';
import ui from '../../components/ui.module.css';
import page from '../../components/page.module.css';
import { requestMailLink, setMailSubscription } from './mailApi.ts';
import { readMailToken } from './token.ts';
import styles from './mail.module.css';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The server's sentence, or ours when there is none (offline, an unexpected failure). */
const failureText = (error: unknown, t: Translate) =>
  isApiError(error) && error.status === 0
    ? t('common.offline')
    : isApiError(error) && error.message
      ? error.message
      : t('common.error');

/**
 * /mail/?token=…[&action=unsubscribe]: the page the links in our e-mails open. It says what the
 * button will do and changes nothing until the button is pressed (mail scanners follow links
 * with GET); without a usable token it offers to e-mail a new link.
 */
export default function MailPage() {
  const { t } = useI18n();
  useDocumentTitle(t('mail.title'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const leaving = params.get('action') === 'unsubscribe';
  const view = token ? readMailToken(token) : null;

  return (
    <div className={page.narrow}>
      <header className={page.listHead}>
        <h1 className={page.heading}>{t('mail.title')}</h1>
        <p className={page.lead}>{t('mail.lead')}</p>
      </header>
      {token && !view && <p className={ui.noticeError}>{t('mail.badLink')}</p>}
      {view?.expired && <p className={ui.noticeError}>{t('mail.expired')}</p>}
      {view && !view.expired ? (
        <Decide token={token} email={view.email} leaving={leaving} />
      ) : (
        <AskForLink />
      )}
    </div>
  );
}

/** Subscribe or Unsubscribe, then the result with the way back. */
function Decide(props: { token: string; email: string; leaving: boolean }) {
  const { t } = useI18n();
  const id = useId();
  const mutation = useMutation({
    mutationFn: (subscribed: boolean) => setMailSubscription(props.token, subscribed),
  });
  const done = mutation.data;
  const email = done?.email ?? props.email;
  // After a result the button offers the other way, so a slip is one press to undo.
  const next = done ? !done.subscribed : !props.leaving;

  return (
    <section className={page.form} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={page.panelTitle}>
        {t(props.leaving ? 'mail.leaveTitle' : 'mail.joinTitle')}
      </h2>
      {!done && (
        <p>{t(props.leaving ? 'mail.leaveText' : 'mail.joinText', { email: props.email })}</p>
      )}
      <div role="status" className={styles.result}>
        {done && (
          <p className={ui.noticeSuccess}>
            {t(done.subscribed ? 'mail.subscribed' : 'mail.unsubscribed', { email })}
          </p>
        )}
      </div>
      {mutation.isError && (
        <p className={ui.noticeError} role="alert">
          {failureText(mutation.error, t)}
        </p>
      )}
      <div>
        <button
          type="button"
          className={done ? ui.buttonSecondary : ui.button}
          disabled={mutation.isPending}
          onClick={() => mutation.mutate(next)}
        >
          {mutation.isPending
            ? t('mail.working')
            : next
              ? t(done ? 'mail.again' : 'mail.subscribe')
              : t('mail.unsubscribe')}
        </button>
      </div>
    </section>
  );
}

/** An address in, a confirmation link out: the answer is the same for every address. */
function AskForLink() {
  const { t } = useI18n();
  const id = useId();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const mutation = useMutation({ mutationFn: (address: string) => requestMailLink(address) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    mutation.mutate(address);
  };

  return (
    <form
      method="post"
      className={page.form}
      aria-labelledby={`${id}-title`}
      onSubmit={submit}
      noValidate
    >
      <h2 id={`${id}-title`} className={page.panelTitle}>
        {t('mail.askTitle')}
      </h2>
      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-email`}>
          {t('mail.email')}
        </label>
        <input
          id={`${id}-email`}
          className={ui.input}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          value={email}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
          onChange={(e) => setEmail(e.target.value)}
        />
        <p id={`${id}-hint`} className={ui.hint}>
          {t('mail.askHelp')}
        </p>
        {invalid && (
          <p id={`${id}-error`} className={ui.fieldError}>
            {t('mail.emailInvalid')}
          </p>
        )}
      </div>
      <div>
        <button type="submit" className={ui.button} disabled={mutation.isPending}>
          {t(mutation.isPending ? 'mail.working' : 'mail.send')}
        </button>
      </div>
      <div role="status" className={styles.result}>
        {mutation.isSuccess && (
          <p className={ui.noticeSuccess}>{t('mail.sent', { email: mutation.variables })}</p>
        )}
      </div>
      {mutation.isError && (
        <p className={ui.noticeError} role="alert">
          {failureText(mutation.error, t)}
        </p>
      )}
    </form>
  );
}
