import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths, LIMITS, type Me, type UiLang } from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import { changeUsername, refreshToken, useMe } from '../api/queries.ts';
import { afterFollow, setFollow, useFollowing, type FollowingItem } from '../api/social.ts';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { MailingListSection } from '../features/account/MailingListSection.tsx';
import { EmailVerifyLink } from '../features/account/EmailVerifyLink.tsx';
import { MembershipsSection } from '../features/account/MembershipsSection.tsx';
import { SignInSection } from '../features/account/SignInSection.tsx';
import { useAuthActions } from '../features/auth/AuthEffects.tsx';
import { storeName, storeToken } from '../features/auth/session.ts';
import { useSession } from '../features/auth/useSession.ts';
import { disablePushBeforeLogout } from '../features/push/push.ts';
import { usePush } from '../features/push/usePush.ts';
import { textLang } from '../features/stories/lang.ts';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import styles from '../components/page.module.css';
import own from './AccountPage.module.css';

/** /account: who is logged in, change of username, memberships, mailing list, following, Web Push, UI language, logout. */
export default function AccountPage() {
  const { t } = useI18n();
  const session = useSession();
  useDocumentTitle(t('account.title'));

  return (
    <div className={styles.narrow}>
      <h1 className={styles.heading}>{t('account.title')}</h1>
      <EmailVerifyLink />
      {session.status === 'unknown' ? (
        <SkeletonLines lines={4} label={t('common.loading')} />
      ) : session.status === 'visitor' ? (
        <InfoNotice>
          <p>{t('account.needLogin')}</p>
          <Link className={ui.button} to={`/login?redirect=${encodeURIComponent('/account')}`}>
            {t('nav.login')}
          </Link>
        </InfoNotice>
      ) : (
        <>
          <Profile />
          <SignInSection />
          <MembershipsSection />
          <MailingListSection />
          <FollowingPanel />
          <PushPanel />
          <LanguagePanel />
          <LogoutPanel />
        </>
      )}
    </div>
  );
}

function Profile() {
  const { t } = useI18n();
  const id = useId();
  const me = useMe(true);
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: changeUsername,
    onSuccess: async ({ username }) => {
      queryClient.setQueryData<Me>([apiPaths.me()], (old) =>
        old ? { ...old, name: username } : old,
      );
      // The token carries the name: a refreshed token has the new one in it.
      const fresh = await refreshToken().catch(() => null);
      if (fresh) storeToken(fresh.accesstoken);
      else storeName(username);
    },
  });

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const username = String(new FormData(e.currentTarget).get('username') ?? '').trim();
    const length = [...username].length;
    if (length < LIMITS.usernameMinChars || length > LIMITS.usernameMaxChars) {
      setError(
        t('auth.usernameLength', { min: LIMITS.usernameMinChars, max: LIMITS.usernameMaxChars }),
      );
      return;
    }
    setError(null);
    mutation.mutate(username);
  };

  const serverError = mutation.error
    ? isApiError(mutation.error) && mutation.error.message && mutation.error.status !== 0
      ? mutation.error.message
      : t(
          isApiError(mutation.error) && mutation.error.status === 0
            ? 'common.offline'
            : 'common.error',
        )
    : null;
  const shownError = error ?? serverError;

  if (me.isPending) return <SkeletonLines lines={3} label={t('common.loading')} />;
  if (me.isError) return <ErrorNotice error={me.error} onRetry={() => void me.refetch()} />;

  return (
    <section className={styles.panel} aria-labelledby={`${id}-profile`}>
      <h2 id={`${id}-profile`} className={styles.panelTitle}>
        {t('account.changeUsername')}
      </h2>
      <dl className={styles.facts}>
        <dt>{t('account.name')}</dt>
        <dd lang={textLang(me.data.name)}>{me.data.name}</dd>
        <dt>{t('account.email')}</dt>
        <dd className={own.email}>
          <EmailAddress email={me.data.email} />
        </dd>
        {me.data.author && (
          <>
            <dt className="visually-hidden">{t('account.author')}</dt>
            <dd>
              <span className={ui.badge}>{t('account.author')}</span>
            </dd>
          </>
        )}
      </dl>
      <form method="post" className={styles.inlineForm} onSubmit={onSubmit} noValidate>
        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-username`}>
            {t('account.newUsername')}
          </label>
          <input
            id={`${id}-username`}
            name="username"
            className={ui.input}
            defaultValue={me.data.name}
            autoComplete="username"
            maxLength={LIMITS.usernameMaxChars}
            aria-invalid={shownError ? true : undefined}
            aria-describedby={`${id}-username-status`}
          />
        </div>
        <button type="submit" className={ui.button} disabled={mutation.isPending}>
          {t('account.save')}
        </button>
      </form>
      <p id={`${id}-username-status`} role="status">
        {shownError ? (
          <span className={ui.fieldError}>{shownError}</span>
        ) : mutation.isSuccess ? (
          <span>{t('account.saved', { name: mutation.data.username })}</span>
        ) : null}
      </p>
    </section>
  );
}

/** Whom the reader follows, each with Unfollow; authors link to their page. */
function FollowingPanel() {
  const { t } = useI18n();
  const id = useId();
  const query = useFollowing(true);
  return (
    <section className={styles.panel} aria-labelledby={`${id}-following`}>
      <h2 id={`${id}-following`} className={styles.panelTitle}>
        {t('account.following')}
      </h2>
      {query.isPending ? (
        <SkeletonLines lines={2} label={t('common.loading')} />
      ) : query.isError ? (
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.list.length === 0 ? (
        <p className={ui.hint}>{t('account.followingEmpty')}</p>
      ) : (
        <ul className={own.following}>
          {query.data.list.map((item) => (
            <FollowingRow key={item.userId} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FollowingRow({ item }: { item: FollowingItem }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const name = item.authorName ?? item.username;
  const mutation = useMutation({
    mutationFn: () => setFollow(item.userId, false),
    onSuccess: (answer) => afterFollow(queryClient, item.authorId, answer),
  });
  return (
    <li className={own.followingItem}>
      {item.authorId !== null ? (
        <Link to={apiPaths.authorPage(item.authorId)} lang={textLang(name)}>
          {name}
        </Link>
      ) : (
        <span lang={textLang(name)}>{name}</span>
      )}
      <button
        type="button"
        className={ui.buttonQuiet}
        disabled={mutation.isPending}
        aria-label={t('account.unfollowLabel', { name })}
        onClick={() => mutation.mutate()}
      >
        {t('account.unfollow')}
      </button>
      {mutation.isError && (
        <span className={ui.fieldError} role="alert">
          {t('common.error')}
        </span>
      )}
    </li>
  );
}

/** Web Push on or off for this device; the service worker is registered only when it goes on. */
function PushPanel() {
  const { t } = useI18n();
  const id = useId();
  const push = usePush();
  const on = push.state === 'on';
  const usable = push.state === 'on' || push.state === 'off';
  return (
    <section className={styles.panel} aria-labelledby={`${id}-push`}>
      <h2 id={`${id}-push`} className={styles.panelTitle}>
        {t('push.title')}
      </h2>
      <p className={ui.hint}>{t('push.help')}</p>
      {push.state === 'unsupported' ? (
        <p>{t('push.unsupported')}</p>
      ) : push.state === 'denied' ? (
        <p>{t('push.denied')}</p>
      ) : (
        <label className={own.switch}>
          <input
            type="checkbox"
            role="switch"
            checked={on}
            disabled={!usable || push.busy}
            aria-describedby={`${id}-push-status`}
            onChange={() => void (on ? push.turnOff() : push.turnOn())}
          />
          <span>{t('push.toggle')}</span>
        </label>
      )}
      <p id={`${id}-push-status`} role="status" className={ui.hint}>
        {push.failed ? (
          <span className={ui.fieldError}>{t('push.failed')}</span>
        ) : usable ? (
          t(on ? 'push.on' : 'push.off')
        ) : null}
      </p>
    </section>
  );
}

function LanguagePanel() {
  const { t, lang, setLang } = useI18n();
  const id = useId();
  const options: { value: UiLang; label: string }[] = [
    { value: 'en', label: 'English' },
    { value: 'si', label: 'සිංහල' },
  ];
  return (
    <section className={styles.panel} aria-labelledby={`${id}-lang`}>
      <h2 id={`${id}-lang`} className={styles.panelTitle}>
        {t('account.language')}
      </h2>
      <p className={ui.hint}>{t('account.languageHelp')}</p>
      <fieldset className={styles.radioRow}>
        <legend className="visually-hidden">{t('account.language')}</legend>
        {options.map((o) => (
          <label key={o.value} className={styles.radio} lang={o.value}>
            <input
              type="radio"
              name={`${id}-ui-lang`}
              value={o.value}
              checked={lang === o.value}
              onChange={() => setLang(o.value)}
            />
            {o.label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}

function LogoutPanel() {
  const { t } = useI18n();
  const { logout } = useAuthActions();
  const [busy, setBusy] = useState(false);
  return (
    <section className={styles.panel}>
      <button
        type="button"
        className={ui.buttonSecondary}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void disablePushBeforeLogout().then(logout);
        }}
      >
        {t('account.logout')}
      </button>
    </section>
  );
}

/**
 * An e-mail address that may wrap only before its '@', never inside a word; a part wider than
 * the screen scrolls sideways in its box (AccountPage.module.css `.email`).
 */
function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span>{email}</span>;
  return (
    <>
      <span>{email.slice(0, at)}</span>
      <wbr />
      <span>{email.slice(at)}</span>
    </>
  );
}
