import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isSignInErrorCode, safeRedirect, type SignInError } from '@kathamala/domain';
import { exchangeSignIn } from '../../api/signin.ts';
import { useAuthActions } from './AuthEffects.tsx';

/** The one-time code the server's callback put in the fragment (`#signin=...`), if any. */
const codeInFragment = (): string | null => {
  if (typeof window === 'undefined') return null;
  return /^#signin=([\w-]{16,200})$/.exec(window.location.hash)?.[1] ?? null;
};

/**
 * The way back from Google or Facebook to /login: the fragment's one-time code is traded for our
 * token (stored as a password login stores it) and the reader goes on to where they were; the
 * code leaves the address bar first. A refusal comes as `?signin=reason` or from the trade.
 */
export function useProviderReturn(reasonParam: string | null): {
  working: boolean;
  reason: SignInError | null;
} {
  const navigate = useNavigate();
  const { startSession } = useAuthActions();
  const [working, setWorking] = useState(false);
  const [failed, setFailed] = useState<SignInError | null>(null);

  useEffect(() => {
    const code = codeInFragment();
    if (!code) return;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    setWorking(true);
    exchangeSignIn(code).then(
      ({ accesstoken, redirect }) => {
        startSession(accesstoken);
        navigate(safeRedirect(redirect), { replace: true });
      },
      () => {
        setWorking(false);
        setFailed('handoff');
      },
    );
    // Once, on arrival: the code works once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return {
    working,
    reason: failed ?? (isSignInErrorCode(reasonParam) ? reasonParam : null),
  };
}
