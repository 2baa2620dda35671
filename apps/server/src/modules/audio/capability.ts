import { createHmac, timingSafeEqual } from 'node:crypto';

const HOUR_MS = 60 * 60 * 1000;
/** A capability lives 3 to 4 hours: made per hour, so one listener's prefix is the same all hour. */
const LIFETIME_HOURS = 4;

/** What a valid members-only prefix grants: this track's renditions, to this listener. */
export interface Grant {
  prefix: string;
  userId: number;
}

/**
 * Members-only prefixes (issue 29): `{prefix}.{userId}.{expiry}.{mac}`, an HMAC-SHA256 over the
 * rest with a server secret. It names the track and the listener and expires within hours; it
 * carries no token, so a URL that leaks into a log or a share sheet opens one track for a while.
 */
export function capabilities(secret: string) {
  const mac = (body: string) =>
    createHmac('sha256', secret).update(body).digest('base64url').slice(0, 32);
  return {
    /** The prefix a member may stream with, valid until the hour after next is out. */
    sign(prefix: string, userId: number, now = Date.now()): string {
      const expiry = ((Math.floor(now / HOUR_MS) + LIFETIME_HOURS) * HOUR_MS) / 1000;
      const body = `${prefix}.${userId}.${expiry.toString(36)}`;
      return `${body}.${mac(body)}`;
    },
    /** The grant of a signed prefix, or null when it is malformed, tampered with or expired. */
    verify(token: string, now = Date.now()): Grant | null {
      const parts = token.split('.');
      if (parts.length !== 4) return null;
      const [prefix, user, expiry, given] = parts as [string, string, string, string];
      const expected = Buffer.from(mac(`${prefix}.${user}.${expiry}`));
      const got = Buffer.from(given);
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) return null;
      if (parseInt(expiry, 36) * 1000 <= now) return null;
      const userId = Number(user);
      return Number.isSafeInteger(userId) && userId > 0 ? { prefix, userId } : null;
    },
    /** The hour a signed prefix was made in: lists signed in the same hour are the same. */
    hourOf: (now = Date.now()) => Math.floor(now / HOUR_MS),
  };
}
export type Capabilities = ReturnType<typeof capabilities>;
