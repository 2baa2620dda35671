import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { hashRaw, type Algorithm } from '@node-rs/argon2';

/**
 * Passwords are hashed with argon2id at one of the five settings OWASP's Password Storage Cheat
 * Sheet lists as equally strong: 7 MiB of memory, 5 passes, 1 lane. Of the five it costs the
 * least CPU and the least memory per hash in flight. @node-rs/argon2 computes it with the
 * processor's vector instructions in about 8 ms, where node:crypto's argon2 takes 22 ms for the
 * same bytes; both it and scrypt run on libuv's threadpool, never on the event loop. The
 * parameters travel in the stored string (the PHC
 * format: `$argon2id$v=19$m=7168,t=5,p=1$salt$hash`), so a later change leaves old hashes
 * readable; needsRehash() says which to replace at the next login.
 */
const ARGON2 = { memory: 7_168, passes: 5, parallelism: 1 } as const;
const KEY_LEN = 32;
const SALT_LEN = 16;
const CURRENT = `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$`;

/**
 * Hashes in flight at once, per process: one fewer than libuv's threadpool has threads (4 unless
 * UV_THREADPOOL_SIZE says otherwise), so file reads and WebCrypto never wait for a thread behind a
 * burst of sign-ups' 8 ms hashes, and fewer hashing threads take turns with the event loop for the
 * cores (decision 58).
 */
const HASH_SLOTS = Math.max(1, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1);
let hashing = 0;
const waiting: (() => void)[] = [];

/** Runs `derive` when a hashing slot is free; later callers wait their turn, first come first served. */
async function inSlot<T>(derive: () => Promise<T>): Promise<T> {
  if (hashing >= HASH_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else hashing++;
  try {
    return await derive();
  } finally {
    // The slot passes straight to the next in line, so a newcomer cannot take it first.
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

/** Bounds an old scrypt hash's memory (128 * N * r bytes) when checking it. */
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** Algorithm.Argon2id: the package declares it as an ambient const enum, which we cannot name. */
const ARGON2ID = 2 as Algorithm;

const deriveArgon2 = (
  password: string,
  salt: Buffer,
  p: { memory: number; passes: number; parallelism: number },
  length: number,
) =>
  inSlot(() =>
    hashRaw(password.normalize('NFC'), {
      algorithm: ARGON2ID,
      salt,
      memoryCost: p.memory,
      timeCost: p.passes,
      parallelism: p.parallelism,
      outputLen: length,
    }),
  );

const deriveScrypt = (password: string, salt: Buffer, n: number, r: number, p: number) =>
  inSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(
          password.normalize('NFC'),
          salt,
          KEY_LEN,
          { N: n, r, p, maxmem: SCRYPT_MAXMEM },
          (err, key) => (err ? reject(err) : resolve(key)),
        ),
      ),
  );

/** Hashes a password with argon2id at today's parameters. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await deriveArgon2(password, salt, ARGON2, KEY_LEN);
  return `${CURRENT}${b64(salt)}$${b64(key)}`;
}

const ARGON2_HASH =
  /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * Checks a password against a stored hash in constant time: an argon2id hash, or a scrypt one
 * (`scrypt$N$r$p$salt$key`) made before argon2id, which needsRehash() then replaces.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const argon = ARGON2_HASH.exec(stored);
  if (argon) {
    const [, m, t, p, salt, hash] = argon;
    const expected = Buffer.from(hash!, 'base64');
    if (expected.length < 16) return false;
    const key = await deriveArgon2(
      password,
      Buffer.from(salt!, 'base64'),
      { memory: Number(m), passes: Number(t), parallelism: Number(p) },
      expected.length,
    );
    return timingSafeEqual(key, expected);
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await deriveScrypt(
    password,
    Buffer.from(salt, 'base64url'),
    Number(n),
    Number(r),
    Number(p),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when a stored hash is not argon2id at today's parameters (replace it at the next login). */
export const needsRehash = (stored: string): boolean => !stored.startsWith(CURRENT);

/** A hash of nothing, checked when the e-mail is unknown so both answers take as long. */
export const DUMMY_HASH = await hashPassword(randomBytes(12).toString('hex'));
