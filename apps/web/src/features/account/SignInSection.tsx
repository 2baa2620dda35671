import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isSignInErrorCode, isSignInProvider, type SignInProvider } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import {
  linkStart,
  requestVerification,
  signInPaths,
  unlinkProvider,
  useUserProviders,
} from '../../api/signin.ts';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { ProviderIcon } from '../auth/ProviderButtons.tsx';
import { useSession } from '../auth/useSession.ts';
import ui from '../../components/ui.module.css';
import page from '../../components/page.module.css';
import own from './signin.module.css';

/** The server's sentence, or ours when there is none (offline, a fault). */
const messageOf = (error: unknown, t: Translate) =>
  isApiError(error) && error.status === 0
    ? t('common.offline')
    : isApiError(error) && error.message
      ? error.message
      : t('common.error');

/**
 * /account/'s ways to sign in: the password, each provider linked or not (Link, Unlink while
 * another way in remains), and whether the e-mail address is verified (with a link to send).
 */
export function SignInSection() {
  const { t } = useI18n();
  const id = useId();
  const session = useSession();
  const token = session.status === 'reader' ? session.token : null;
  const providers = useUserProviders(token);
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [signInPaths.userProviders()] });

  const linked = params.get('linked');
  const reason = params.get('signin');
  useEffect(() => {
    if (isSignInProvider(linked))
      setNotice({
        ok: true,
        text: t('signin.account.linked', { provider: t(`signin.provider.${linked}`) }),
      });
    else if (isSignInErrorCode(reason)) setNotice({ ok: false, text: t(`signin.error.${reason}`) });
  }, [linked, reason, t]);

  const link = useMutation({
    mutationFn: (provider: SignInProvider) => linkStart(provider),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => setNotice({ ok: false, text: messageOf(error, t) }),
  });
  const unlink = useMutation({
    mutationFn: (provider: SignInProvider) => unlinkProvider(provider),
    onSuccess: (_data, provider) => {
      setNotice({
        ok: true,
        text: t('signin.account.unlinked', { provider: t(`signin.provider.${provider}`) }),
      });
      void refresh();
    },
    onError: (error) => setNotice({ ok: false, text: messageOf(error, t) }),
  });
  const sendLink = useMutation({
    mutationFn: requestVerification,
    onError: (error) => setNotice({ ok: false, text: messageOf(error, t) }),
  });

  const data = providers.data;
  const offered = (data?.available ?? []).filter(isSignInProvider);
  return (
    <section className={page.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={page.panelTitle}>
        {t('signin.account.title')}
      </h2>
      {notice && (
        <p
          className={notice.ok ? ui.noticeSuccess : ui.noticeError}
          role={notice.ok ? 'status' : 'alert'}
        >
          {notice.text}
        </p>
      )}
      {!data ? (
        <SkeletonLines lines={2} label={t('common.loading')} />
      ) : (
        <>
          {offered.length > 0 && <p className={ui.hint}>{t('signin.account.help')}</p>}
          <ul className={own.ways} role="list">
            {data.hasPassword && (
              <li className={own.way}>
                <svg className={own.mark} viewBox="0 0 24 24" aria-hidden="true">
                  <path
                    fill="currentColor"
                    d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 0 1 6 0v3H9z"
                  />
                </svg>
                <span className={own.wayName}>{t('signin.account.password')}</span>
              </li>
            )}
            {offered.map((provider) => {
              const found = data.linked.find((l) => l.provider === provider);
              const name = t(`signin.provider.${provider}`);
              return (
                <li key={provider} className={own.way} data-provider={provider}>
                  <ProviderIcon provider={provider} />
                  <span className={own.wayName}>
                    {name}
                    <span className={own.wayState}>
                      {found
                        ? t('signin.account.linkedAs', { email: found.email ?? '' })
                        : t('signin.account.notLinked')}
                    </span>
                  </span>
                  {found ? (
                    <button
                      type="button"
                      className={ui.buttonSecondary}
                      disabled={unlink.isPending}
                      aria-label={`${t('signin.account.unlink')} ${name}`}
                      onClick={() => unlink.mutate(provider)}
                    >
                      {t('signin.account.unlink')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className={ui.button}
                      disabled={link.isPending}
                      aria-label={`${t('signin.account.link')} ${name}`}
                      onClick={() => link.mutate(provider)}
                    >
                      {t('signin.account.link')}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          <p className={own.emailState}>
            {t(data.emailVerified ? 'signin.email.verified' : 'signin.email.unverified', {
              email: data.email,
            })}
          </p>
          {!data.emailVerified && !sendLink.isSuccess && (
            <div>
              <button
                type="button"
                className={ui.buttonSecondary}
                disabled={sendLink.isPending}
                onClick={() => sendLink.mutate()}
              >
                {t(sendLink.isPending ? 'signin.email.sending' : 'signin.email.send')}
              </button>
            </div>
          )}
          <p role="status" className={own.emailState}>
            {sendLink.isSuccess && t('signin.email.sent', { email: data.email })}
          </p>
        </>
      )}
    </section>
  );
}
