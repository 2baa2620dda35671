import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError } from 'arctic';
import { decodeJwt } from 'jose';
import type { SignInError, SignInProvider } from '@kathamala/domain';
import type { OAuthClient } from '../../config.ts';

/** A sign-in that cannot go on; the browser goes back to /login saying why. */
export class SignInFailure extends Error {
  constructor(
    readonly reason: SignInError,
    detail?: string,
  ) {
    super(detail ?? reason);
  }
}

/** What the provider says about the person, read once with the access token. */
export interface ProviderProfile {
  /** The provider's stable id of the account (OpenID `sub`, Facebook's `id`). */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

/** Where a provider's protocol is spoken: the real provider's addresses or the simulator's. */
export interface Endpoints {
  /** The browser goes here (the simulator's on the public address). */
  authorize: string;
  /** The server calls these (the simulator's on this server's own listening address). */
  token: string;
  profile: string;
  /** The ID token's expected issuer (OpenID Connect providers only). */
  issuer?: string;
}

/** One provider's adapter: the same code talks to Google or Facebook and to the simulator. */
export interface SignInAdapter {
  provider: SignInProvider;
  authorizationUrl(flow: { state: string; verifier: string; nonce: string }): URL;
  /** Trades the code for an access token, reads the profile with it, and forgets the token. */
  profile(code: string, flow: { verifier: string; nonce: string }): Promise<ProviderProfile>;
}

export const GOOGLE_ENDPOINTS: Endpoints = {
  authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  profile: 'https://openidconnect.googleapis.com/v1/userinfo',
  issuer: 'https://accounts.google.com',
};

const GRAPH = 'https://graph.facebook.com/v23.0';
export const FACEBOOK_ENDPOINTS: Endpoints = {
  authorize: 'https://www.facebook.com/v23.0/dialog/oauth',
  token: `${GRAPH}/oauth/access_token`,
  profile: `${GRAPH}/me?fields=id,name,email`,
};

/** How long the provider may take to answer one call. */
const CALL_TIMEOUT_MS = 10_000;

/** The token exchange; a refused code (reused, expired, wrong verifier) is a failure of its own. */
async function exchange(client: OAuth2Client, endpoint: string, code: string, verifier: string) {
  try {
    return await client.validateAuthorizationCode(endpoint, code, verifier);
  } catch (err) {
    if (err instanceof OAuth2RequestError && err.code === 'invalid_grant')
      throw new SignInFailure('code', err.message);
    throw new SignInFailure('provider', err instanceof Error ? err.message : String(err));
  }
}

/** The provider's authorization address for a flow: the code flow with PKCE (S256). */
const pkceUrl = (
  oauth: OAuth2Client,
  endpoints: Endpoints,
  flow: { state: string; verifier: string },
  scopes: string[],
) =>
  oauth.createAuthorizationURLWithPKCE(
    endpoints.authorize,
    flow.state,
    CodeChallengeMethod.S256,
    flow.verifier,
    scopes,
  );

/** GET of the profile with the access token (SPEC.md 7); the token goes in a header only. */
async function readProfile(url: string, accessToken: string): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    throw new SignInFailure('provider', `profile: ${String(err)}`);
  }
  if (!res.ok) throw new SignInFailure('provider', `profile: HTTP ${res.status}`);
  const body = (await res.json().catch(() => null)) as unknown;
  if (typeof body !== 'object' || body === null) throw new SignInFailure('provider', 'profile');
  return body as Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * Google, an OpenID Connect provider: the nonce goes out with the request and must come back in
 * the ID token of the token answer (which also names the same `sub` the userinfo endpoint does).
 * The ID token comes straight from the token endpoint over TLS, so its issuer is taken on TLS's
 * word (OpenID Connect Core 3.1.3.7) and its claims are read, not its signature checked.
 */
export function googleAdapter(
  client: OAuthClient,
  endpoints: Endpoints,
  redirectUri: string,
): SignInAdapter {
  const oauth = new OAuth2Client(client.clientId, client.clientSecret, redirectUri);
  return {
    provider: 'google',
    authorizationUrl(flow) {
      const url = pkceUrl(oauth, endpoints, flow, ['openid', 'email', 'profile']);
      url.searchParams.set('nonce', flow.nonce);
      url.searchParams.set('prompt', 'select_account');
      return url;
    },
    async profile(code, { verifier, nonce }) {
      const tokens = await exchange(oauth, endpoints.token, code, verifier);
      let idSubject: string | null;
      try {
        const claims = decodeJwt(tokens.idToken());
        const audience = [claims.aud ?? []].flat();
        const issuers = [endpoints.issuer, endpoints.issuer?.replace(/^https:\/\//, '')];
        if (claims.nonce !== nonce) throw new Error('nonce');
        if (!audience.includes(client.clientId)) throw new Error('aud');
        if (!issuers.includes(claims.iss)) throw new Error('iss');
        if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now())
          throw new Error('exp');
        idSubject = str(claims.sub);
      } catch (err) {
        throw new SignInFailure('provider', `id token: ${String(err)}`);
      }
      const info = await readProfile(endpoints.profile, tokens.accessToken());
      const subject = str(info.sub);
      if (!subject || subject !== idSubject) throw new SignInFailure('provider', 'subject');
      return {
        subject,
        email: str(info.email),
        emailVerified: info.email_verified === true || info.email_verified === 'true',
        name: str(info.name) ?? '',
      };
    },
  };
}

/**
 * Facebook (OAuth 2.0 with PKCE; the Graph API's /me). Facebook gives an e-mail address only
 * once its owner has confirmed it, and no flag: one that comes is taken as verified.
 */
export function facebookAdapter(
  client: OAuthClient,
  endpoints: Endpoints,
  redirectUri: string,
): SignInAdapter {
  const oauth = new OAuth2Client(client.clientId, client.clientSecret, redirectUri);
  return {
    provider: 'facebook',
    authorizationUrl: (flow) => pkceUrl(oauth, endpoints, flow, ['email', 'public_profile']),
    async profile(code, { verifier }) {
      const tokens = await exchange(oauth, endpoints.token, code, verifier);
      const info = await readProfile(endpoints.profile, tokens.accessToken());
      const subject = str(info.id);
      if (!subject) throw new SignInFailure('provider', 'subject');
      const email = str(info.email);
      return { subject, email, emailVerified: email !== null, name: str(info.name) ?? '' };
    },
  };
}
