import { useId, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LIMITS, safeRedirect } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { login, signup } from '../../api/queries.ts';
import { requestVerification } from '../../api/signin.ts';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { useDocumentTitle } from '../../useDocumentTitle.ts';
import ui from '../../components/ui.module.css';
import styles from '../../components/page.module.css';
import { useAuthActions } from './AuthEffects.tsx';
import { ProviderButtons } from './ProviderButtons.tsx';
import { useProviderReturn } from './useProviderReturn.ts';

type Mode = 'login' | 'signup';
type Field = 'email' | 'password' | 'username';
type Errors = Partial<Record<Field, string>>;

/** The form's fields in the order they are on screen: focus goes to the first one in error. */
const FIELDS: Record<Mode, readonly Field[]> = {
  login: ['email', 'password'],
  signup: ['username', 'email', 'password'],
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const validate = (mode: Mode, values: Record<Field, string>, t: Translate): Errors => {
  const errors: Errors = {};
  if (!values.email) errors.email = t('auth.required');
  else if (!EMAIL.test(values.email)) errors.email = t('auth.emailInvalid');
  if (!values.password) errors.password = t('auth.required');
  else if (mode === 'signup' && values.password.length < LIMITS.passwordMinChars)
    errors.password = t('auth.passwordShort', { n: LIMITS.passwordMinChars });
  if (mode === 'signup') {
    const length = [...values.username].length;
    if (!values.username) errors.username = t('auth.required');
    else if (length < LIMITS.usernameMinChars || length > LIMITS.usernameMaxChars)
      errors.username = t('auth.usernameLength', {
        min: LIMITS.usernameMinChars,
        max: LIMITS.usernameMaxChars,
      });
  }
  return errors;
};

/** Login and Join. Both go back to a same-site `redirect` afterwards, home otherwise. */
export function AuthForm({ mode }: { mode: Mode }) {
  const { t } = useI18n();
  const id = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { startSession } = useAuthActions();
  const redirectParam = params.get('redirect');
  const target = safeRedirect(redirectParam);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Back from Google or Facebook: the token to fetch, or the reason it did not work.
  const providerReturn = useProviderReturn(params.get('signin'));
  useDocumentTitle(t(mode === 'login' ? 'auth.loginTitle' : 'auth.signupTitle'));

  /** Shows the errors at their fields and moves the focus to the first of them on screen. */
  const showErrors = (found: Errors) => {
    setErrors(found);
    const first = FIELDS[mode].find((name) => found[name]);
    if (first) document.getElementById(`${id}-${first}`)?.focus();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const values = {
      email: String(form.get('email') ?? '').trim(),
      password: String(form.get('password') ?? ''),
      username: String(form.get('username') ?? '').trim(),
    };
    const found = validate(mode, values, t);
    showErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const { accesstoken } =
        mode === 'login'
          ? await login({ email: values.email, password: values.password })
          : await signup({
              email: values.email,
              password: values.password,
              username: values.username,
            });
      startSession(accesstoken);
      // A new account's address is proved by a link sent to it (then Google or Facebook with
      // the same verified address may sign into it); the reader need not wait for the e-mail.
      if (mode === 'signup') void requestVerification().catch(() => undefined);
      navigate(target, { replace: true });
    } catch (error) {
      // The server's message is written for people: show it as it is (SPEC.md 8), at the field
      // it names (a username or an e-mail address already taken), otherwise above the button.
      const failed = isApiError(error) ? error : null;
      const field = FIELDS[mode].find((name) => name === failed?.field);
      if (field && failed?.message) showErrors({ [field]: failed.message });
      else if (failed?.status === 0) setFailure(t('common.offline'));
      else if (failed?.message) setFailure(failed.message);
      else setFailure(t('common.error'));
      setBusy(false);
    }
  };

  const other = mode === 'login' ? '/signup' : '/login';
  const otherHref = redirectParam ? `${other}?redirect=${encodeURIComponent(target)}` : other;

  const field = (
    name: Field,
    label: string,
    input: InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => {
    const inputId = `${id}-${name}`;
    const describedBy = [hint && `${inputId}-hint`, errors[name] && `${inputId}-error`]
      .filter(Boolean)
      .join(' ');
    return (
      <div className={ui.field}>
        <label className={ui.label} htmlFor={inputId}>
          {label}
        </label>
        <input
          id={inputId}
          name={name}
          className={ui.input}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...input}
        />
        {hint && (
          <span id={`${inputId}-hint`} className={ui.hint}>
            {hint}
          </span>
        )}
        {errors[name] && (
          <span id={`${inputId}-error`} className={ui.fieldError}>
            {errors[name]}
          </span>
        )}
      </div>
    );
  };

  return (
    <div className={styles.narrow}>
      <div className={styles.listHead}>
        <h1 className={styles.heading}>
          {t(mode === 'login' ? 'auth.loginTitle' : 'auth.signupTitle')}
        </h1>
        <p className={styles.lead}>{t(mode === 'login' ? 'auth.loginLead' : 'auth.signupLead')}</p>
      </div>
      {providerReturn.working && (
        <p className={ui.notice} role="status">
          {t('signin.working')}
        </p>
      )}
      {providerReturn.reason && (
        <p className={ui.noticeError} role="alert">
          {t(`signin.error.${providerReturn.reason}`)}
        </p>
      )}
      <ProviderButtons redirect={target} after="or" />
      <form
        method="post"
        className={styles.form}
        onSubmit={onSubmit}
        noValidate
        aria-busy={busy || undefined}
      >
        {mode === 'signup' &&
          field(
            'username',
            t('auth.username'),
            { type: 'text', autoComplete: 'username', maxLength: LIMITS.usernameMaxChars },
            t('auth.usernameHint', { min: LIMITS.usernameMinChars, max: LIMITS.usernameMaxChars }),
          )}
        {field('email', t('auth.email'), {
          type: 'email',
          autoComplete: 'email',
          inputMode: 'email',
          maxLength: LIMITS.emailChars,
        })}
        {field(
          'password',
          t('auth.password'),
          {
            type: 'password',
            autoComplete: mode === 'login' ? 'current-password' : 'new-password',
            maxLength: LIMITS.passwordMaxChars,
          },
          mode === 'signup' ? t('auth.passwordHint', { n: LIMITS.passwordMinChars }) : undefined,
        )}
        {failure && (
          <p className={ui.noticeError} role="alert">
            {failure}
          </p>
        )}
        <button type="submit" className={ui.button} disabled={busy}>
          {busy
            ? t('auth.working')
            : t(mode === 'login' ? 'auth.loginSubmit' : 'auth.signupSubmit')}
        </button>
      </form>
      <p className={styles.switchLine}>
        {t(mode === 'login' ? 'auth.noAccount' : 'auth.haveAccount')}{' '}
        <Link to={otherHref}>{t(mode === 'login' ? 'nav.join' : 'nav.login')}</Link>
      </p>
    </div>
  );
}
