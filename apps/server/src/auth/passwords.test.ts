import { argon2Sync, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';

// node:crypto's argon2 is an independent implementation (OpenSSL's): agreeing with it both ways
// means the stored hashes are standard argon2id and stay readable without our library.
const opensslKey = (password: string, salt: Buffer, m: number, t: number, length: number) =>
  argon2Sync('argon2id', {
    message: password.normalize('NFC'),
    nonce: salt,
    memory: m,
    passes: t,
    parallelism: 1,
    tagLength: length,
  });

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

describe('passwords', () => {
  it('stores argon2id that OpenSSL derives to the same key, for Sinhala text too', async () => {
    const password = 'ශ්‍රී ලංකා pässwörd';
    const stored = await hashPassword(password);
    const [, , , params, salt, key] = stored.split('$');
    expect(params).toBe('m=7168,t=5,p=1');
    expect(stored).not.toContain(password);
    const expected = opensslKey(password, Buffer.from(salt!, 'base64'), 7168, 5, 32);
    expect(Buffer.from(key!, 'base64').equals(expected)).toBe(true);
    expect(needsRehash(stored)).toBe(false);
  });

  it('checks a hash OpenSSL made at other parameters, and asks to replace it', async () => {
    const salt = randomBytes(16);
    const key = opensslKey('monsoon rain', salt, 1024, 2, 32);
    const stored = `$argon2id$v=19$m=1024,t=2,p=1$${b64(salt)}$${b64(key)}`;
    expect(await verifyPassword('monsoon rain', stored)).toBe(true);
    expect(await verifyPassword('monsoon rain!', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  it('accepts the same password in another Unicode form, and refuses a wrong one', async () => {
    const stored = await hashPassword('Café');
    expect(await verifyPassword('Cafe\u0301', stored)).toBe(true);
    expect(await verifyPassword('cafe', stored)).toBe(false);
    expect(await verifyPassword('Café', 'not a hash')).toBe(false);
  });

  it('leaves a thread of the pool free: a file stat during a burst of sign-ups does not wait', async () => {
    let hashed = 0;
    const burst = Array.from({ length: 12 }, (_, i) =>
      hashPassword(`burst ${i}`).then(() => hashed++),
    );
    // libuv runs its queue in order: with every thread hashing, this stat waited for 9 hashes.
    // One call on the pool; a busy machine may still finish a few hashes meanwhile.
    await stat(fileURLToPath(import.meta.url));
    const hashedWhenRead = hashed;
    await Promise.all(burst);
    expect(hashedWhenRead).toBeLessThan(6);
    expect(hashed).toBe(12);
  });
});
