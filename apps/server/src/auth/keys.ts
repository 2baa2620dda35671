import {
  createPrivateKey,
  createPublicKey,
  sign as signBytes,
  verify as verifyBytes,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import { MEMBERSHIP, type TokenClaims } from '@kathamala/domain';
import type { Db } from '../db/client.ts';
import { keysRepo, type StoredKey } from './keys-repo.ts';
import { seal, unseal, isSealed } from './secret-box.ts';

const ALG = 'EdDSA';

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/**
 * The longest a token we sign may live (mail links: a year; sessions: 30 days), plus a day: a key
 * that stopped signing keeps verifying this long, so no token it signed is refused early.
 */
export const MAX_TOKEN_LIFETIME_MS = (MEMBERSHIP.mailTokenDays + 1) * 86_400_000;

/** How often an instance re-reads the keys, so a rotation reaches it within a minute. */
const REFRESH_MS = 60_000;
/** At most one reload for unknown key ids per this many ms: a forged `kid` cannot hammer the database. */
const UNKNOWN_KID_RELOAD_MS = 1_000;
/** How long a key id that was not in the database is answered "unknown" without looking again. */
const NEGATIVE_CACHE_MS = 30_000;
/** The JWKS answer re-reads keys older than this (one small query at most this often). */
const JWKS_FRESH_MS = 2_000;

/** The deployment's token keys: Ed25519, one signing, every live one verifying (by `kid`). */
export interface TokenKeys {
  /** The key id tokens are signed with now. */
  readonly kid: string;
  /** The signing key's public JWK. */
  readonly publicJwk: JWK;
  /**
   * Every public key that verifies now (the JWKS), the signing one first; re-read when the keys
   * were read more than JWKS_FRESH_MS ago, so every instance lists a key another one just added.
   */
  jwks(): Promise<JWK[]>;
  sign(claims: Omit<TokenClaims, 'exp'>, ttlSeconds: number): Promise<string>;
  verify(token: string): Promise<TokenClaims>;
  /**
   * Signs a token that is not a session: it carries `purpose` and a subject only (no session id,
   * so it never logs anyone in), e.g. the mailing list's link tokens.
   */
  signFor(purpose: string, sub: string, ttlSeconds: number): Promise<string>;
  /** The subject of a token signed by signFor for `purpose`; throws when forged, expired or another purpose's. */
  verifyFor(token: string, purpose: string): Promise<string>;
  /** Reads the keys again from where they come from (the database); a no-op for fixed keys. */
  reload(): Promise<void>;
  /** Stops the periodic reload. */
  close(): void;
}

/** A key pair as JWKs (the private one with `d`). */
interface KeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
}

/** What a key source answers: the keys that sign (newest first, each from `signsFrom`) and verify. */
interface KeySet {
  /** `retiring`: a newer key replaces it (it signs only until that key's time has come). */
  signing: { kid: string; privateJwk: JWK; signsFrom: number; retiring: boolean }[];
  verifying: JWK[];
}

interface LoadedKey {
  kid: string;
  jwk: JWK;
  key: KeyObject;
}

/** A key that signs (node:crypto, see signWith), with when it starts and whether it retires. */
interface SigningKey {
  kid: string;
  jwk: JWK;
  signer: KeyObject;
  signsFrom: number;
  retiring: boolean;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The header of a compact JWS in the form signWith makes (EdDSA, no `crit`), checked before any
 * key is looked up, so a token of another form never sends us to the database for its `kid`.
 */
function headerOf(token: string): ProtectedHeaderParameters {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part)))
    throw new errors.JWSInvalid('Not a compact JWS.');
  const header = decodeProtectedHeader(token);
  if (header.alg !== ALG) throw new errors.JOSEAlgNotAllowed('Unexpected token algorithm.');
  if ('crit' in header) throw new errors.JOSENotSupported('Unexpected critical header.');
  return header;
}

/**
 * The claims of a token whose header headerOf accepted, when `key` signed it, its `exp` is to
 * come and any `nbf` past. node:crypto checks the signature in one synchronous call of about
 * 100 µs; jose checks it through WebCrypto, which runs on libuv's threadpool, where a reader's
 * first request waited behind password hashes (decision 58). jose still parses the claims.
 */
function checked(token: string, key: KeyObject): JWTPayload {
  const [header, payload, signature] = token.split('.');
  const signed = Buffer.from(`${header}.${payload}`);
  if (!verifyBytes(null, signed, key, Buffer.from(signature!, 'base64url')))
    throw new errors.JWSSignatureVerificationFailed();
  const claims = decodeJwt(token);
  const now = Date.now() / 1000;
  // jose's own errors, so callers tell an expired link from a forged one by `code`.
  if (typeof claims.exp !== 'number')
    throw new errors.JWTClaimValidationFailed('No "exp" claim.', claims, 'exp', 'missing');
  if (claims.exp <= now)
    throw new errors.JWTExpired('"exp" claim timestamp check failed', claims, 'exp');
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now))
    throw new errors.JWTClaimValidationFailed('"nbf" claim timestamp check failed', claims, 'nbf');
  return claims;
}

/** A fresh Ed25519 pair. */
export async function generatePair(): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, {
    crv: 'Ed25519',
    extractable: true,
  });
  return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}

/** The key id of a public key: its RFC 7638 thumbprint (the same id the file-kept key always had). */
export const kidOf = (publicJwk: JWK) => calculateJwkThumbprint(publicJwk);

/** The public half of a JWK, with the fields the JWKS carries. */
const publicOf = (jwk: JWK, kid: string): JWK => ({
  kty: jwk.kty,
  crv: jwk.crv,
  x: jwk.x,
  kid,
  alg: ALG,
  use: 'sig',
});

/** A key ring over a source: reloads on a timer and on an unknown kid (throttled, negative-cached). */
async function keyRing(
  load: () => Promise<KeySet>,
  opts: { refreshMs: number | null },
): Promise<TokenKeys> {
  let signing: SigningKey[] = [];
  let verifying = new Map<string, LoadedKey>();
  const unknown = new Map<string, number>();
  let lastUnknownReload = 0;
  let reloading: Promise<void> | null = null;
  let loadedAt = 0;

  const apply = async (set: KeySet) => {
    const nextVerifying = new Map<string, LoadedKey>();
    for (const jwk of set.verifying) {
      const kid = jwk.kid ?? (await kidOf(jwk));
      const known = verifying.get(kid);
      nextVerifying.set(
        kid,
        known ?? {
          kid,
          jwk: publicOf(jwk, kid),
          key: createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }),
        },
      );
    }
    const nextSigning = [];
    for (const s of set.signing) {
      const known = signing.find((k) => k.kid === s.kid);
      const had = known && { ...known, signsFrom: s.signsFrom, retiring: s.retiring };
      nextSigning.push(
        had ?? {
          kid: s.kid,
          jwk: publicOf(s.privateJwk, s.kid),
          signer: createPrivateKey({ key: s.privateJwk as JsonWebKey, format: 'jwk' }),
          signsFrom: s.signsFrom,
          retiring: s.retiring,
        },
      );
    }
    if (nextSigning.length === 0) throw new Error('No token signing key.');
    signing = nextSigning;
    verifying = nextVerifying;
    for (const kid of verifying.keys()) unknown.delete(kid);
    loadedAt = Date.now();
  };
  const reload = () =>
    (reloading ??= load()
      .then(apply)
      .finally(() => {
        reloading = null;
      }));
  await reload();

  /**
   * The key that signs: the one key not being retired once its time has come (a rotated key is
   * published ahead of signing), until then the newest started one of those it replaces.
   */
  const current = () => {
    const now = Date.now();
    const started = signing.filter((k) => k.signsFrom <= now);
    return (
      started.find((k) => !k.retiring) ??
      started[0] ??
      signing.find((k) => !k.retiring) ??
      signing[0]!
    );
  };

  /** The verifying key for a token's kid, reloading once when the kid is new to us. */
  const keyFor = async (token: string): Promise<KeyObject> => {
    const kid = headerOf(token).kid ?? current().kid;
    const found = verifying.get(kid);
    if (found) return found.key;
    const now = Date.now();
    if (typeof kid !== 'string' || kid.length > 100 || (unknown.get(kid) ?? 0) > now)
      throw new Error('Unknown key id.');
    // One reload a second at most, shared by everyone waiting for it.
    const wait = lastUnknownReload + UNKNOWN_KID_RELOAD_MS - now;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (!verifying.has(kid)) {
      if (Date.now() - lastUnknownReload >= UNKNOWN_KID_RELOAD_MS) {
        lastUnknownReload = Date.now();
        await reload();
      } else await reloading;
    }
    const again = verifying.get(kid);
    if (again) return again.key;
    if (unknown.size > 10_000) unknown.clear();
    unknown.set(kid, Date.now() + NEGATIVE_CACHE_MS);
    throw new Error('Unknown key id.');
  };

  const timer =
    opts.refreshMs === null
      ? null
      : setInterval(() => {
          reload().catch((e: Error) => console.error(`Reloading token keys failed: ${e.message}`));
        }, opts.refreshMs);
  timer?.unref();

  /**
   * A compact JWS of the claims, signed by the current key with node:crypto: one synchronous
   * call of 40 µs, where jose (WebCrypto only) took 150 µs of the event loop's time per token,
   * and every rating's answer carries one. jose still verifies them.
   */
  const signWith = async (claims: Record<string, unknown>, ttlSeconds: number) => {
    const k = current();
    const iat = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: ALG, kid: k.kid, typ: 'JWT' }));
    const payload = base64url(JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds }));
    const input = `${header}.${payload}`;
    return `${input}.${signBytes(null, Buffer.from(input), k.signer).toString('base64url')}`;
  };

  return {
    get kid() {
      return current().kid;
    },
    get publicJwk() {
      return current().jwk;
    },
    jwks: async () => {
      if (opts.refreshMs !== null && Date.now() - loadedAt > JWKS_FRESH_MS) await reload();
      const first = current().kid;
      const all = [...verifying.values()].map((k) => k.jwk);
      return [...all.filter((k) => k.kid === first), ...all.filter((k) => k.kid !== first)];
    },
    sign: (claims, ttlSeconds) =>
      signWith(
        { sid: claims.sid, name: claims.name, author: claims.author, sub: claims.sub },
        ttlSeconds,
      ),
    verify: async (token) => checked(token, await keyFor(token)) as unknown as TokenClaims,
    signFor: (purpose, sub, ttlSeconds) => signWith({ purpose, sub }, ttlSeconds),
    verifyFor: async (token, purpose) => {
      const payload = checked(token, await keyFor(token));
      if (payload.purpose !== purpose || typeof payload.sub !== 'string' || 'sid' in payload)
        throw new Error(`Not a ${purpose} token.`);
      return payload.sub;
    },
    reload,
    close: () => {
      if (timer) clearInterval(timer);
    },
  };
}

const keyFile = (dataDir: string) => path.join(dataDir, 'keys', 'token-signing.json');

/** The pair kept in DATA_DIR/keys/token-signing.json by earlier versions, or null. */
async function readKeyFile(dataDir: string | null): Promise<KeyPair | null> {
  if (!dataDir) return null;
  try {
    return JSON.parse(await fs.readFile(keyFile(dataDir), 'utf8')) as KeyPair;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * A single key kept in DATA_DIR/keys (made there once), or a throwaway one when `dataDir` is null.
 * For tools and tests; the server keeps its keys in the database (openTokenKeys).
 */
export async function loadTokenKeys(dataDir: string | null): Promise<TokenKeys> {
  let pair = await readKeyFile(dataDir);
  if (!pair) {
    pair = await generatePair();
    if (dataDir) {
      await fs.mkdir(path.dirname(keyFile(dataDir)), { recursive: true, mode: 0o700 });
      await fs.writeFile(keyFile(dataDir), JSON.stringify(pair), { mode: 0o600 });
    }
  }
  const kid = await kidOf(pair.publicJwk);
  const fixed = pair;
  return keyRing(
    async () => ({
      signing: [{ kid, privateJwk: fixed.privateJwk, signsFrom: 0, retiring: false }],
      verifying: [{ ...fixed.publicJwk, kid }],
    }),
    { refreshMs: null },
  );
}

/** Checks a configured signing JWK: an Ed25519 private key (OKP, crv Ed25519, with d and x). */
export function checkSigningJwk(jwk: JWK, name: string): void {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x || !jwk.d)
    throw new Error(
      `${name} must be an Ed25519 private key as a JWK (kty OKP, crv Ed25519, x, d).`,
    );
}

/** The token keys given by configuration: TOKEN_SIGNING_KEY signs, it and TOKEN_VERIFY_KEYS verify. */
async function configuredKeys(signingKey: JWK, verifyKeys: JWK[]): Promise<TokenKeys> {
  const publicJwk = { kty: signingKey.kty, crv: signingKey.crv, x: signingKey.x };
  const kid = signingKey.kid ?? (await kidOf(publicJwk));
  const verifying: JWK[] = [{ ...publicJwk, kid }];
  for (const k of verifyKeys) {
    const pub = { kty: k.kty, crv: k.crv, x: k.x };
    verifying.push({ ...pub, kid: k.kid ?? (await kidOf(pub)) });
  }
  return keyRing(
    async () => ({
      signing: [{ kid, privateJwk: signingKey, signsFrom: 0, retiring: false }],
      verifying,
    }),
    { refreshMs: null },
  );
}

/** Where the server's token keys come from, and how they are protected. */
export interface TokenKeyOptions {
  db: Db;
  /** An older version's key file is imported from here once. */
  dataDir: string | null;
  /** TOKEN_SIGNING_KEY: when set, configuration gives the keys and the database is not used. */
  signingKey: JWK | null;
  /** TOKEN_VERIFY_KEYS: older public keys that still verify (with a configured signing key). */
  verifyKeys: JWK[];
  /** KEY_ENCRYPTION_SECRET: private keys are stored sealed with it (AES-256-GCM) when given. */
  encryptionSecret: string | null;
  /** How often to re-read the database (ms); default a minute. */
  refreshMs?: number;
}

/** Turns stored rows (live ones, newest first) into a key set, unsealing the private keys. */
function keySetOf(stored: StoredKey[], secret: string | null): KeySet {
  // Every live key may sign: a key being retired signs until its successor's time has come.
  const signing = stored.map((k) => ({
    kid: k.kid,
    privateJwk: JSON.parse(unseal(k.privateJwk, secret, `Signing key ${k.kid}`)) as JWK,
    signsFrom: k.createdAt.getTime(),
    retiring: k.retireAfter !== null,
  }));
  return { signing, verifying: stored.map((k) => ({ ...(k.publicJwk as JWK), kid: k.kid })) };
}

/**
 * The deployment's token keys: from configuration when TOKEN_SIGNING_KEY is set, else from the
 * database, where the first instance to start makes one (under an advisory lock, so instances
 * starting together agree) after importing an older version's DATA_DIR key file once.
 */
export async function openTokenKeys(opts: TokenKeyOptions): Promise<TokenKeys> {
  if (opts.signingKey) return configuredKeys(opts.signingKey, opts.verifyKeys);
  const repo = keysRepo(opts.db);
  const secret = opts.encryptionSecret;
  const file = await readKeyFile(opts.dataDir);
  const fileKid = file ? await kidOf(file.publicJwk) : null;
  await repo.locked(async (r) => {
    const all = await r.keys({ all: true });
    const live = all.filter((k) => k.retireAfter === null || k.retireAfter.getTime() > Date.now());
    const signs = live.some((k) => k.retireAfter === null);
    if (file && fileKid && !all.some((k) => k.kid === fileKid)) {
      // Today's tokens stay valid: the file's key signs when there is none yet, else it verifies
      // (another instance's older key) until the longest token it may have signed has expired.
      await r.insertKey({
        kid: fileKid,
        publicJwk: file.publicJwk,
        privateJwk: seal(JSON.stringify(file.privateJwk), secret),
        signsFrom: new Date(0),
        retireAfter: signs ? new Date(Date.now() + MAX_TOKEN_LIFETIME_MS) : null,
      });
    } else if (!signs) {
      const pair = await generatePair();
      await r.insertKey({
        kid: await kidOf(pair.publicJwk),
        publicJwk: pair.publicJwk,
        privateJwk: seal(JSON.stringify(pair.privateJwk), secret),
        retireAfter: null,
      });
    }
    // A secret given later seals the keys stored in the clear before it.
    if (secret)
      for (const k of live)
        if (!isSealed(k.privateJwk)) await r.resealKey(k.kid, seal(k.privateJwk, secret));
  });
  return keyRing(async () => keySetOf(await repo.keys(), secret), {
    refreshMs: opts.refreshMs ?? REFRESH_MS,
  });
}

/**
 * Rotation: a new key that signs from `signsFrom` (published in the JWKS at once, so browsers
 * that cached the key set know it before the first token it signs), while every older key stops
 * signing then and verifies until the longest token it signed has expired. Nobody is logged out.
 */
export async function rotateTokenKeys(
  db: Db,
  opts: { encryptionSecret: string | null; signsFrom: Date },
): Promise<{ kid: string; retiring: string[]; retireAfter: Date }> {
  const pair = await generatePair();
  const kid = await kidOf(pair.publicJwk);
  const retireAfter = new Date(opts.signsFrom.getTime() + MAX_TOKEN_LIFETIME_MS);
  const retiring = await keysRepo(db).locked(async (r) => {
    await r.insertKey({
      kid,
      publicJwk: pair.publicJwk,
      privateJwk: seal(JSON.stringify(pair.privateJwk), opts.encryptionSecret),
      signsFrom: opts.signsFrom,
      retireAfter: null,
    });
    return r.retireOthers(kid, retireAfter);
  });
  return { kid, retiring, retireAfter };
}
