import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/** The AES-256 key derived from KEY_ENCRYPTION_SECRET (HKDF-SHA256, fixed salt and purpose). */
const aesKey = (secret: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'kathamala', 'deployment secrets v1', 32));

/**
 * Seals a stored secret with AES-256-GCM under `secret`; with no secret the value is kept as is
 * (the database then holds it in the clear: see decisions.md, record 4).
 */
export function seal(value: string, secret: string | null): string {
  if (!secret) return value;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(secret), iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
  return PREFIX + parts.join('.');
}

/** Opens a value made by seal; a sealed value without the secret, or with a wrong one, throws. */
export function unseal(stored: string, secret: string | null, what: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!secret)
    throw new Error(
      `${what} is encrypted in the database: set KEY_ENCRYPTION_SECRET to the secret it was stored with.`,
    );
  const [iv, tag, body] = stored
    .slice(PREFIX.length)
    .split('.')
    .map((p) => Buffer.from(p, 'base64url'));
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey(secret), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      `${what} cannot be decrypted: KEY_ENCRYPTION_SECRET is not the one it was stored with.`,
    );
  }
}

/** Whether a stored value is sealed. */
export const isSealed = (stored: string) => stored.startsWith(PREFIX);
