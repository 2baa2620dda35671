import { createPrivateKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { sharedSecrets } from './deployment-secrets.ts';
import { loadTokenKeys, openTokenKeys, rotateTokenKeys, type TokenKeys } from './keys.ts';
import { seal, unseal } from './secret-box.ts';

const SECRET = 'a key encryption secret for tests';
const claims = { sub: '1', sid: '00000000-0000-4000-8000-000000000000', name: 'A', author: false };

describe('token keys in the database', () => {
  let database: Database;
  const open: TokenKeys[] = [];
  const keysOf = async (opts: Partial<Parameters<typeof openTokenKeys>[0]> = {}) => {
    const k = await openTokenKeys({
      db: database.db,
      dataDir: null,
      signingKey: null,
      verifyKeys: [],
      encryptionSecret: SECRET,
      ...opts,
    });
    open.push(k);
    return k;
  };
  const stored = async () =>
    (
      (await database.db.execute(
        sql`select kid, private_jwk, retire_after from signing_keys order by created_at`,
      )) as unknown as {
        rows: { kid: string; private_jwk: string; retire_after: string | null }[];
      }
    ).rows;

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: null });
  });
  afterAll(async () => {
    for (const k of open) k.close();
    await database.close();
  });

  it('makes one key, sealed, and a second opening (another instance) uses the same', async () => {
    const a = await keysOf();
    const b = await keysOf();
    expect(b.kid).toBe(a.kid);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.private_jwk).toMatch(/^enc:v1:/);
    expect(rows[0]!.private_jwk).not.toContain('"d"');
    expect((await b.verify(await a.sign(claims, 60))).sub).toBe('1');
  });

  it('signs tokens any JWT library verifies with the published keys, expiring when asked', async () => {
    const k = await keysOf();
    const token = await k.sign(claims, 60);
    const { payload, protectedHeader } = await jwtVerify(
      token,
      createLocalJWKSet({ keys: await k.jwks() }),
      { algorithms: ['EdDSA'] },
    );
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: k.kid, typ: 'JWT' });
    expect(payload).toMatchObject({ ...claims });
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(5);
    // A purpose token (a mail link) says what it is for and is refused for anything else.
    expect(await k.verifyFor(await k.signFor('mail', 'a@b.lk', 60), 'mail')).toBe('a@b.lk');
    await expect(k.verifyFor(await k.signFor('mail', 'a@b.lk', 60), 'verify')).rejects.toThrow();
    // Expired (a second-long token, checked after it ended) and tampered tokens are refused.
    const brief = await k.sign(claims, 1);
    await new Promise((r) => setTimeout(r, 2_100));
    await expect(k.verify(brief)).rejects.toThrow();
    const [h, , sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: '2' })).toString('base64url');
    await expect(k.verify(`${h}.${forged}.${sig}`)).rejects.toThrow();
  });

  it('refuses to start without the secret the keys were sealed with', async () => {
    await expect(keysOf({ encryptionSecret: null })).rejects.toThrow(/KEY_ENCRYPTION_SECRET/);
    await expect(keysOf({ encryptionSecret: 'another secret, 16+ chars' })).rejects.toThrow(
      /cannot be decrypted/,
    );
  });

  it('imports an older version key file once, as a verifying key beside the signing one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-keys-'));
    try {
      const old = await loadTokenKeys(dir);
      const oldToken = await old.sign(claims, 60);
      const k = await keysOf({ dataDir: dir });
      expect(k.kid).not.toBe(old.kid);
      expect((await k.jwks()).map((j) => j.kid)).toContain(old.kid);
      expect((await k.verify(oldToken)).sub).toBe('1');
      await keysOf({ dataDir: dir });
      expect((await stored()).filter((r) => r.kid === old.kid)).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publishes a rotated key ahead of signing, then signs with it; old tokens still verify', async () => {
    const k = await keysOf();
    const before = await k.sign(claims, 60);
    const oldKid = k.kid;
    const ahead = await rotateTokenKeys(database.db, {
      encryptionSecret: SECRET,
      signsFrom: new Date(Date.now() + 3_600_000),
    });
    await k.reload();
    expect((await k.jwks()).map((j) => j.kid)).toContain(ahead.kid);
    expect(k.kid).toBe(oldKid);
    expect(decodeProtectedHeader(await k.sign(claims, 60)).kid).toBe(oldKid);
    const now = await rotateTokenKeys(database.db, {
      encryptionSecret: SECRET,
      signsFrom: new Date(),
    });
    expect(now.retiring).toContain(ahead.kid);
    await k.reload();
    // The newest key whose time has come signs: the one made "now", not the one an hour ahead.
    const after = await k.sign(claims, 60);
    expect(decodeProtectedHeader(after).kid).toBe(now.kid);
    expect((await k.verify(before)).sub).toBe('1');
    expect((await k.verify(after)).sub).toBe('1');
  });

  it('picks up a rotation by itself on its next periodic read', async () => {
    const k = await keysOf({ refreshMs: 100 });
    const { kid } = await rotateTokenKeys(database.db, {
      encryptionSecret: SECRET,
      signsFrom: new Date(),
    });
    for (let i = 0; i < 50 && k.kid !== kid; i++) await new Promise((r) => setTimeout(r, 100));
    expect(k.kid).toBe(kid);
  });

  it('takes configured keys and ignores the database', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', {
      crv: 'Ed25519',
      extractable: true,
    });
    const other = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const config = loadConfig({
      TOKEN_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
      TOKEN_VERIFY_KEYS: JSON.stringify({ keys: [await exportJWK(other.publicKey)] }),
    });
    const k = await keysOf({ ...config.keys });
    expect((await k.jwks()).map((j) => j.x)).toEqual([
      (await exportJWK(publicKey)).x,
      (await exportJWK(other.publicKey)).x,
    ]);
    expect((await k.verify(await k.sign(claims, 60))).sub).toBe('1');
  });

  it('verifies our own tokens only: EdDSA by a known key, unexpired, in compact form', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const jwk = await exportJWK(privateKey);
    const k = await keysOf({ ...loadConfig({ TOKEN_SIGNING_KEY: JSON.stringify(jwk) }).keys });
    const signer = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const token = (header: object, payload: object, key = signer) => {
      const input = `${b64(header)}.${b64(payload)}`;
      return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
    };
    const header = { alg: 'EdDSA', kid: k.kid, typ: 'JWT' };
    const payload = { ...claims, iat: now, exp: now + 60 };
    // Another JWT library's token, signed with our key, is ours.
    const fromJose = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: k.kid })
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(privateKey);
    expect((await k.verify(fromJose)).sub).toBe('1');
    expect((await k.verify(token(header, payload))).name).toBe('A');
    const refused = [
      token({ ...header, alg: 'none' }, payload),
      token({ ...header, crit: ['b64'], b64: true }, payload),
      token(header, { ...payload, exp: undefined }),
      token(header, { ...payload, exp: now - 1 }),
      token(header, { ...payload, nbf: now + 60 }),
      token({ ...header, kid: 'not-a-key-we-have' }, payload),
      token(header, payload, generateKeyPairSync('ed25519').privateKey),
      `${token(header, payload)}=`,
      `${token(header, payload)}.`,
      token(header, payload).replace(/\.(\w)/, '.+$1'),
    ];
    for (const t of refused) await expect(k.verify(t), t).rejects.toThrow();
    // An expired token says so, as jose would: a mail link answers "expired", not "not valid".
    await expect(k.verify(token(header, { ...payload, exp: now - 1 }))).rejects.toMatchObject({
      code: 'ERR_JWT_EXPIRED',
    });
  });

  it('shares a secret: the first stored wins, sealed', async () => {
    const s = sharedSecrets(database.db, SECRET);
    const first = await s.get('test.secret', { fromFile: async () => null, make: () => 'one' });
    const second = await s.get('test.secret', { fromFile: async () => 'two', make: () => 'three' });
    expect([first, second]).toEqual(['one', 'one']);
  });
});

describe('configuration of keys and S3', () => {
  it('refuses malformed keys and half-set S3 credentials, naming the variable', () => {
    expect(() => loadConfig({ TOKEN_SIGNING_KEY: '{"kty":"RSA"}' })).toThrow(/TOKEN_SIGNING_KEY/);
    expect(() => loadConfig({ TOKEN_SIGNING_KEY: 'not json' })).toThrow(ConfigError);
    expect(() => loadConfig({ TOKEN_VERIFY_KEYS: '[]' })).toThrow(/TOKEN_SIGNING_KEY/);
    expect(() => loadConfig({ KEY_ENCRYPTION_SECRET: 'short' })).toThrow(/KEY_ENCRYPTION_SECRET/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' })).toThrow(/S3_SECRET/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: '1' }).s3).toMatchObject({
      bucket: 'b',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: null,
    });
  });

  it('seals and opens a value; a tampered one is refused', () => {
    const sealed = seal('hello', SECRET);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(unseal(sealed, SECRET, 'x')).toBe('hello');
    expect(seal('plain', null)).toBe('plain');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => unseal(tampered, SECRET, 'x')).toThrow(/cannot be decrypted/);
  });
});
