import fs from 'node:fs/promises';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type CryptoKey,
} from 'jose';
import type { TokenClaims } from '@kathamala/domain';

const ALG = 'EdDSA';

/** The server's signing key: Ed25519, kept in DATA_DIR/keys so tokens survive restarts. */
export interface TokenKeys {
  kid: string;
  publicJwk: JWK;
  sign(claims: Omit<TokenClaims, 'exp'>, ttlSeconds: number): Promise<string>;
  verify(token: string): Promise<TokenClaims>;
  /**
   * Signs a token that is not a session: it carries `purpose` and a subject only (no session id,
   * so it never logs anyone in), e.g. the mailing list's link tokens.
   */
  signFor(purpose: string, sub: string, ttlSeconds: number): Promise<string>;
  /** The subject of a token signed by signFor for `purpose`; throws when forged, expired or another purpose's. */
  verifyFor(token: string, purpose: string): Promise<string>;
}

async function loadOrCreate(dir: string | null): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const file = dir ? path.join(dir, 'keys', 'token-signing.json') : null;
  if (file) {
    try {
      return JSON.parse(await fs.readFile(file, 'utf8')) as { privateJwk: JWK; publicJwk: JWK };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  const { privateKey, publicKey } = await generateKeyPair(ALG, {
    crv: 'Ed25519',
    extractable: true,
  });
  const pair = { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
  if (file) {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, JSON.stringify(pair), { mode: 0o600 });
  }
  return pair;
}

/** Loads the signing key from `dataDir` (creating it once), or makes a throwaway one. */
export async function loadTokenKeys(dataDir: string | null): Promise<TokenKeys> {
  const { privateJwk, publicJwk } = await loadOrCreate(dataDir);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateKey = (await importJWK(privateJwk, ALG)) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, ALG)) as CryptoKey;
  return {
    kid,
    publicJwk: { ...publicJwk, kid, alg: ALG, use: 'sig' },
    sign: (claims, ttlSeconds) =>
      new SignJWT({ sid: claims.sid, name: claims.name, author: claims.author })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey),
    verify: async (token) => {
      const { payload } = await jwtVerify(token, publicKey, { algorithms: [ALG] });
      return payload as unknown as TokenClaims;
    },
    signFor: (purpose, sub, ttlSeconds) =>
      new SignJWT({ purpose })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey),
    verifyFor: async (token, purpose) => {
      const { payload } = await jwtVerify(token, publicKey, { algorithms: [ALG] });
      if (payload.purpose !== purpose || typeof payload.sub !== 'string' || 'sid' in payload)
        throw new Error(`Not a ${purpose} token.`);
      return payload.sub;
    },
  };
}
