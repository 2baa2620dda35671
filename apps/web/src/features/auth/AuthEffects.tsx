import { useCallback, useEffect, useEffectEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { setUnauthorizedHandler } from '../../api/client.ts';
import { dropPersonalData, logoutCall, refreshToken } from '../../api/queries.ts';
import { stopAudio } from '../audio/stopAudio.ts';
import { clearSession, storeClaims, storeToken } from './session.ts';
import { useSession } from './useSession.ts';
import { verifyToken } from './verify.ts';

/**
 * Where a reader whose session ended goes: /login, back to where they were afterwards. Already on
 * /login or /signup (a second 401 can land after the first sent them there), the way back they
 * carry is kept.
 */
export const loginPathFor = (here: string): string => {
  if (here === '/') return '/login';
  if (here.startsWith('/login') || here.startsWith('/signup')) {
    const query = here.indexOf('?');
    return query === -1 ? '/login' : `/login${here.slice(query)}`;
  }
  return `/login?redirect=${encodeURIComponent(here)}`;
};

/** Ends the session in this browser and sends the reader to /login (SPEC.md 4). */
function useEndSession() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const here = location.pathname + location.search;
  return useCallback(
    (returnHere: boolean) => {
      clearSession();
      // Audio stops with the session (SPEC.md 4), whatever page it plays on.
      stopAudio();
      dropPersonalData(queryClient);
      navigate(returnHere ? loginPathFor(here) : '/login', { replace: returnHere });
    },
    [navigate, queryClient, here],
  );
}

/**
 * Keeps the session honest: a 401 anywhere logs out, and every new token is checked against the
 * server's public keys; a token that fails the check is dropped. Renders nothing.
 */
export function AuthEffects() {
  const endSession = useEndSession();
  const session = useSession();
  const token = session.status === 'reader' ? session.token : null;

  useEffect(() => {
    setUnauthorizedHandler(() => endSession(true));
    return () => setUnauthorizedHandler(() => {});
  }, [endSession]);

  const onInvalidToken = useEffectEvent(() => endSession(true));

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    void verifyToken(token).then(async (verdict) => {
      if (cancelled) return;
      if (verdict.kind === 'invalid') {
        onInvalidToken();
        return;
      }
      if (verdict.kind !== 'valid') return;
      storeClaims(verdict.claims);
      const { exp, iat } = verdict.claims;
      // Past half of its life: trade it for a fresh one, which is checked again in turn.
      if (
        typeof exp === 'number' &&
        typeof iat === 'number' &&
        Date.now() / 1000 > iat + (exp - iat) / 2
      ) {
        const fresh = await refreshToken().catch(() => null);
        if (fresh && !cancelled) storeToken(fresh.accesstoken);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [token]);

  return null;
}

/** Login, signup and logout as the pages use them. */
export function useAuthActions() {
  const queryClient = useQueryClient();
  const endSession = useEndSession();
  const startSession = useCallback(
    (token: string) => {
      dropPersonalData(queryClient);
      storeToken(token);
    },
    [queryClient],
  );
  const logout = useCallback(async () => {
    // The session ends whether the server answers or not (SPEC.md 7).
    await logoutCall().catch(() => undefined);
    endSession(false);
  }, [endSession]);
  return { startSession, logout };
}
