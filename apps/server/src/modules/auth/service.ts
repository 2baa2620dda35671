import { randomUUID } from 'node:crypto';
import { toStored } from '@kathamala/domain';
import type { TokenKeys } from '../../auth/keys.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { conflict, invalid, unauthorized } from '../../errors.ts';
import type { AuthRepo } from './repo.ts';

/** How long a token (and its session) lives without a refresh. */
export const TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const WRONG_CREDENTIALS = 'The e-mail address or password is not correct.';
const USERNAME_TAKEN = 'That username is taken. Please choose another.';

const cleanUsername = (raw: string) => {
  const name = toStored(raw).trim().replace(/\s+/g, ' ');
  // Control and format characters other than the Sinhala joiners would let names impersonate others.
  if (/[\p{Cc}\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u.test(name))
    throw invalid("'username' contains characters that are not allowed.");
  if ([...name].length < 3) throw invalid("'username' must be at least 3 characters long.");
  return name;
};

/** Accounts, sessions and tokens. */
export function authService(repo: AuthRepo, keys: TokenKeys) {
  const issue = async (user: { id: number; username: string }, sessionId: string) =>
    keys.sign(
      {
        sub: String(user.id),
        sid: sessionId,
        name: user.username,
        author: await repo.isAuthor(user.id),
      },
      TOKEN_TTL_SECONDS,
    );

  const startSession = async (user: { id: number; username: string }) => {
    const id = randomUUID();
    await repo.insertSession({
      id,
      userId: user.id,
      expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000),
    });
    return issue(user, id);
  };

  return {
    async signup(input: { email: string; password: string; username: string }) {
      const username = cleanUsername(input.username);
      const email = input.email.trim();
      if (await repo.findUserByEmail(email))
        throw conflict('An account with this e-mail address already exists. Please log in.');
      if (await repo.usernameTaken(username)) throw conflict(USERNAME_TAKEN);
      const user = await repo.insertUser({
        email,
        username,
        passwordHash: await hashPassword(input.password),
      });
      // Two sign-ups at once: the unique indexes decide, and the loser hears which one.
      if (!user)
        throw conflict(
          (await repo.findUserByEmail(email))
            ? 'An account with this e-mail address already exists. Please log in.'
            : USERNAME_TAKEN,
        );
      return startSession(user);
    },

    async login(input: { email: string; password: string }) {
      const user = await repo.findUserByEmail(input.email.trim());
      const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) throw unauthorized(WRONG_CREDENTIALS);
      return startSession(user);
    },

    /** A fresh token for the same session, with a new expiry. */
    async refresh(viewer: Viewer) {
      const live = await repo.findLiveSession(viewer.sessionId);
      if (!live) throw unauthorized('Your session has ended. Please log in again.');
      await repo.extendSession(viewer.sessionId, new Date(Date.now() + TOKEN_TTL_SECONDS * 1000));
      return issue(live.user, viewer.sessionId);
    },

    logout: (viewer: Viewer) => repo.revokeSession(viewer.sessionId),

    async changeUsername(viewer: Viewer, raw: string) {
      const username = cleanUsername(raw);
      if (await repo.usernameTaken(username, viewer.userId)) throw conflict(USERNAME_TAKEN);
      if (!(await repo.setUsername(viewer.userId, username))) throw conflict(USERNAME_TAKEN);
      return username;
    },

    async me(viewer: Viewer) {
      const user = await repo.findUser(viewer.userId);
      if (!user) throw unauthorized();
      return {
        userId: user.id,
        name: user.username,
        email: user.email,
        author: await repo.isAuthor(user.id),
      };
    },

    /** The viewer a token stands for, or null when it is forged, expired or its session revoked. */
    async viewerFromToken(token: string): Promise<Viewer | null> {
      let claims;
      try {
        claims = await keys.verify(token);
      } catch {
        return null;
      }
      if (typeof claims.sid !== 'string' || !/^[0-9a-f-]{36}$/.test(claims.sid)) return null;
      const live = await repo.findLiveSession(claims.sid);
      if (!live || String(live.user.id) !== claims.sub) return null;
      return {
        userId: live.user.id,
        sessionId: claims.sid,
        name: live.user.username,
        author: claims.author === true,
      };
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
