import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client.ts';
import { signInPaths, verifyEmail } from '../../api/signin.ts';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';

/** The verification link's token (`/account/#verify=...`), if the page was opened by one. */
const tokenInFragment = (): string | null => {
  if (typeof window === 'undefined') return null;
  return /^#verify=([\w.-]{10,2000})$/.exec(window.location.hash)?.[1] ?? null;
};

/**
 * The link from the verification e-mail lands on /account/ with its token in the fragment (which
 * no server log sees). The token leaves the address bar and is spent at once, logged in or not
 * (the token itself says whose address it proves); the page says how it went.
 */
export function EmailVerifyLink() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    const token = tokenInFragment();
    if (!token) return;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    verifyEmail(token).then(
      () => {
        setResult({ ok: true, text: t('signin.email.done') });
        void queryClient.invalidateQueries({ queryKey: [signInPaths.userProviders()] });
      },
      (error: unknown) =>
        setResult({
          ok: false,
          text:
            isApiError(error) && error.status === 0
              ? t('common.offline')
              : isApiError(error) && error.message
                ? error.message
                : t('common.error'),
        }),
    );
    // Spent once: the token leaves the address bar above, so a later run finds none.
  }, [t, queryClient]);

  if (!result) return null;
  return (
    <p
      className={result.ok ? ui.noticeSuccess : ui.noticeError}
      role={result.ok ? 'status' : 'alert'}
    >
      {result.text}
    </p>
  );
}
