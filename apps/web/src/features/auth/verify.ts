import { apiPaths, type TokenClaims } from '@kathamala/domain';

export type Verdict =
  | { kind: 'valid'; claims: Partial<TokenClaims> & { iat?: number } }
  /** The signature or expiry check failed: the token must go. */
  | { kind: 'invalid' }
  /** Could not check here (no Ed25519 in this browser, keys unreachable): the server still guards. */
  | { kind: 'unchecked' };

let jwksPromise: Promise<unknown> | null = null;

/** The server's key set, fetched once per tab; `fresh` asks past the browser's cache. */
const loadJwks = (fresh = false): Promise<unknown> => {
  if (fresh) jwksPromise = null;
  jwksPromise ??= fetch(apiPaths.jwks(), {
    headers: { accept: 'application/json' },
    ...(fresh ? { cache: 'no-cache' as const } : {}),
  }).then((res) => {
    if (!res.ok) throw new Error(`jwks ${res.status}`);
    return res.json();
  });
  jwksPromise.catch(() => {
    jwksPromise = null;
  });
  return jwksPromise;
};

/**
 * Checks a token against the server's public keys (EdDSA, JWKS). jose is loaded on demand so it
 * never weighs on the first paint of a story.
 */
export async function verifyToken(token: string, fresh = false): Promise<Verdict> {
  let jwks: unknown;
  try {
    jwks = await loadJwks(fresh);
  } catch {
    return { kind: 'unchecked' };
  }
  let jose: typeof import('jose');
  try {
    jose = await import('jose');
  } catch {
    return { kind: 'unchecked' };
  }
  try {
    const keySet = jose.createLocalJWKSet(jwks as Parameters<typeof jose.createLocalJWKSet>[0]);
    const { payload } = await jose.jwtVerify(token, keySet, { algorithms: ['EdDSA'] });
    return { kind: 'valid', claims: payload as Partial<TokenClaims> & { iat?: number } };
  } catch (e) {
    // A key the tab has not seen: the server rotated its keys since the set was fetched.
    if (e instanceof jose.errors.JWKSNoMatchingKey && !fresh) return verifyToken(token, true);
    if (e instanceof jose.errors.JOSENotSupported) return { kind: 'unchecked' };
    if (e instanceof TypeError) return { kind: 'unchecked' };
    return { kind: 'invalid' };
  }
}
