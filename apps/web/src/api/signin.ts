import { useQuery } from '@tanstack/react-query';
import type {
  HandoffAnswer,
  SignInProvider,
  SignInProvidersAnswer,
  UserProvidersAnswer,
} from '@kathamala/domain';
import { apiRequest } from './client.ts';

/** Calls of sign-in with Google and Facebook (issue 31). */
export const signInPaths = {
  providers: () => '/api/v1/auth/providers',
  /** A plain link: the browser goes to the provider and comes back to `redirect`. */
  start: (provider: SignInProvider, redirect: string) =>
    `/api/v1/auth/${provider}/start?redirect=${encodeURIComponent(redirect)}`,
  link: (provider: SignInProvider) =>
    `/api/v1/auth/${provider}/start?link=1&redirect=${encodeURIComponent('/account/')}`,
  handoff: () => '/api/v1/auth/handoff',
  userProviders: () => '/api/v1/user/providers',
  unlink: (provider: string) => `/api/v1/user/providers/${provider}`,
  verifyRequest: () => '/api/v1/user/email/verify/request',
  verify: () => '/api/v1/user/email/verify',
};

/** The providers with a button here; none while loading or when the call fails (no button). */
export const useSignInProviders = (): SignInProvider[] => {
  const path = signInPaths.providers();
  const query = useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => apiRequest<SignInProvidersAnswer>(path, { signal }),
    staleTime: 5 * 60_000,
  });
  return query.data?.providers ?? [];
};

/** Trades the one-time code of the callback's fragment for our token. */
export const exchangeSignIn = (code: string) =>
  apiRequest<HandoffAnswer>(signInPaths.handoff(), {
    method: 'POST',
    body: { code },
    sessionGuard: false,
  });

/** The account's linked providers and e-mail state; keyed by the token, so another reader's never shows. */
export const useUserProviders = (token: string | null) => {
  const path = signInPaths.userProviders();
  return useQuery({
    queryKey: [path, token],
    queryFn: ({ signal }) => apiRequest<UserProvidersAnswer>(path, { signal }),
    enabled: token !== null,
  });
};

/** Where the browser goes to link a provider (the call carries the token a navigation cannot). */
export const linkStart = (provider: SignInProvider) =>
  apiRequest<{ url: string }>(signInPaths.link(provider));

export const unlinkProvider = (provider: string) =>
  apiRequest<UserProvidersAnswer>(signInPaths.unlink(provider), { method: 'DELETE' });

export const requestVerification = () =>
  apiRequest<{ email: string; verified: boolean }>(signInPaths.verifyRequest(), {
    method: 'POST',
  });

export const verifyEmail = (token: string) =>
  apiRequest<{ email: string; verified: boolean }>(signInPaths.verify(), {
    method: 'POST',
    body: { token },
  });
