import { randomUUID } from 'node:crypto';
import { toStored, type TokenClaims } from '@kathamala/domain';
import type { TokenKeys } from '../../auth/keys.ts';
import type { CacheDeps } from '../../cache/changes.ts';
import { Memo } from '../../cache/memo.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from '../../auth/passwords.ts';
import { conflict, invalid, unauthorized } from '../../errors.ts';
import type { AuthRepo } from './repo.ts';

/** How long a token (and its session) lives without a refresh. */
export const TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const WRONG_CREDENTIALS = 'The e-mail address or password is not correct.';
const USERNAME_TAKEN = 'That username is taken. Please choose another.';
const SESSION_ENDED = 'Your session has ended. Please log in again.';
const EMAIL_TAKEN = 'An account with this e-mail address already exists. Please log in.';

const cleanUsername = (raw: string) => {
  const name = toStored(raw).trim().replace(/\s+/g, ' ');
  // Control and format characters other than the Sinhala joiners would let names impersonate others.
  if (/[\p{Cc}\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u.test(name))
    throw invalid("'username' contains characters that are not allowed.", 'username');
  if ([...name].length < 3)
    throw invalid("'username' must be at least 3 characters long.", 'username');
  return name;
};

const SESSION_ID = /^[0-9a-f-]{36}$/;
const hasSessionId = (claims: TokenClaims): claims is TokenClaims & { sid: string } =>
  typeof claims.sid === 'string' && SESSION_ID.test(claims.sid);

/** The viewer of a token's claims and its live session, or null when they are not one user's. */
const viewerOf = (claims: TokenClaims & { sid: string }, session: LiveSession): Viewer | null =>
  String(session.userId) === claims.sub
    ? {
        userId: session.userId,
        sessionId: claims.sid,
        name: session.name,
        author: claims.author === true,
      }
    : null;

/** Verified tokens and live sessions kept in memory (a reader's every request presents one). */
const TOKENS_KEPT = 50_000;
const SESSIONS_KEPT = 50_000;

interface LiveSession {
  userId: number;
  name: string;
  expiresAt: number;
  /** users.is_author, set with the account's author row (a change of it drops the session). */
  author: boolean;
}

/**
 * Accounts, sessions and tokens. A verified token's claims and a live session are kept in memory;
 * a session's revocation or refresh, and a user's new name, drop them (database triggers announce
 * every such change, also from other instances), so the next request sees it.
 */
export function authService(repo: AuthRepo, keys: TokenKeys, cache?: CacheDeps) {
  const live = cache ? () => cache.live() : () => false;
  // Signature checks cost more than the rest of a cached read: each token is checked once.
  const tokens = new Memo<string, TokenClaims>(TOKENS_KEPT, live);
  const sessions = new Memo<string, LiveSession>(SESSIONS_KEPT, live);
  cache?.feed.on((change) => {
    if (change.kind === 'session') sessions.delete(change.id);
    else if (change.kind === 'user') sessions.deleteWhere((_, s) => s.userId === change.id);
    else if (change.kind === 'joined')
      // A sign-up on any instance: a notice of its session's end would come after this one.
      sessions.offer(change.session.id, {
        userId: change.userId,
        name: change.session.name,
        expiresAt: change.session.expiresAt,
        author: false,
      });
    else if (change.kind === 'all') sessions.clear();
  });

  // A kept token past its expiry is checked again (and refused by the check).
  const keptClaims = (token: string, now: number): TokenClaims | undefined => {
    const kept = tokens.get(token);
    return kept && typeof kept.exp === 'number' && kept.exp * 1000 > now ? kept : undefined;
  };
  const keptSession = (sid: string, now: number): LiveSession | undefined => {
    const kept = sessions.get(sid);
    return kept && kept.expiresAt > now ? kept : undefined;
  };

  const claimsOf = async (token: string): Promise<TokenClaims | null> => {
    const kept = keptClaims(token, Date.now());
    if (kept) return kept;
    try {
      return (await tokens.load(token, () => keys.verify(token))) ?? null;
    } catch {
      return null;
    }
  };

  const liveSession = async (sid: string): Promise<LiveSession | undefined> => {
    const kept = keptSession(sid, Date.now());
    if (kept) return kept;
    return sessions.load(sid, async () => {
      const found = await repo.findLiveSession(sid);
      return found
        ? {
            userId: found.user.id,
            name: found.user.username,
            expiresAt: found.session.expiresAt.getTime(),
            author: found.user.isAuthor,
          }
        : undefined;
    });
  };

  const issue = async (
    user: { id: number; username: string },
    sessionId: string,
    ttlSeconds = TOKEN_TTL_SECONDS,
    author?: boolean,
  ) =>
    keys.sign(
      {
        sub: String(user.id),
        sid: sessionId,
        name: user.username,
        author: author ?? (await repo.isAuthor(user.id)),
      },
      ttlSeconds,
    );

  /** A new session's id and end. */
  const newSession = () => ({
    id: randomUUID(),
    expiresAt: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000),
  });

  /** The token of a session just written, which is kept as written. */
  const sessionToken = (
    user: { id: number; username: string },
    session: { id: string; expiresAt: Date },
    author: boolean,
  ) => {
    // Kept as written: the new reader's first requests here read no session (the sessions'
    // trigger announces updates and deletes only, so nothing drops it unless it ends).
    sessions.keep(session.id, {
      userId: user.id,
      name: user.username,
      expiresAt: session.expiresAt.getTime(),
      author,
    });
    return issue(user, session.id, TOKEN_TTL_SECONDS, author);
  };

  const startSession = async (user: { id: number; username: string }, author?: boolean) => {
    const session = newSession();
    const isAuthor = author ?? (await repo.isAuthor(user.id));
    await repo.insertSession({ id: session.id, userId: user.id, expiresAt: session.expiresAt });
    return sessionToken(user, session, isAuthor);
  };

  return {
    async signup(input: { email: string; password: string; username: string }) {
      const username = cleanUsername(input.username);
      const email = input.email.trim();
      // Checked before hashing, so a taken name costs no hash; two statements in all.
      const taken = await repo.taken(email, username);
      if (taken.email) throw conflict(EMAIL_TAKEN, 'email');
      if (taken.username) throw conflict(USERNAME_TAKEN, 'username');
      const passwordHash = await hashPassword(input.password);
      const session = newSession();
      const user = await repo.insertUserWithSession({ email, username, passwordHash }, session);
      // Two sign-ups at once: the unique indexes decide, and the loser hears which one.
      if (!user)
        throw (await repo.taken(email, username)).email
          ? conflict(EMAIL_TAKEN, 'email')
          : conflict(USERNAME_TAKEN, 'username');
      // An account made this moment is no one's author: nothing to ask.
      return sessionToken(user, session, false);
    },

    async login(input: { email: string; password: string }) {
      const user = await repo.findUserByEmail(input.email.trim());
      const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) throw unauthorized(WRONG_CREDENTIALS);
      // A hash made with older parameters (scrypt) is replaced now that we hold the password.
      if (needsRehash(user.passwordHash))
        await repo.setPasswordHash(user.id, user.passwordHash, await hashPassword(input.password));
      return startSession(user);
    },

    /** A new session and its token for a user who signed in another way (a sign-in provider). */
    sessionFor: (user: { id: number; username: string }) => startSession(user),

    /**
     * A fresh token for the session as it stands, ending when it ends: for answers that carry
     * one (a rating's). Unlike refresh it writes nothing, so the session kept in memory on
     * every instance stays kept.
     */
    async reissue(viewer: Viewer) {
      const session = await liveSession(viewer.sessionId);
      const ttl = session ? Math.floor((session.expiresAt - Date.now()) / 1000) : 0;
      if (!session || ttl < 1) throw unauthorized(SESSION_ENDED);
      return issue(
        { id: viewer.userId, username: session.name },
        viewer.sessionId,
        ttl,
        session.author,
      );
    },

    /** A fresh token for the same session, with a new expiry. */
    async refresh(viewer: Viewer) {
      const live = await repo.findLiveSession(viewer.sessionId);
      if (!live) throw unauthorized(SESSION_ENDED);
      await repo.extendSession(viewer.sessionId, new Date(Date.now() + TOKEN_TTL_SECONDS * 1000));
      return issue(live.user, viewer.sessionId);
    },

    async logout(viewer: Viewer) {
      await repo.revokeSession(viewer.sessionId);
      // The trigger's notice reaches every instance; this one must not wait for it.
      cache?.feed.emit({ kind: 'session', id: viewer.sessionId });
    },

    async changeUsername(viewer: Viewer, raw: string) {
      const username = cleanUsername(raw);
      if (await repo.usernameTaken(username, viewer.userId)) throw conflict(USERNAME_TAKEN);
      if (!(await repo.setUsername(viewer.userId, username))) throw conflict(USERNAME_TAKEN);
      cache?.feed.emit({ kind: 'user', id: viewer.userId });
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
      const claims = await claimsOf(token);
      if (!claims || !hasSessionId(claims)) return null;
      const session = await liveSession(claims.sid);
      return session ? viewerOf(claims, session) : null;
    },

    /**
     * The same from memory alone (a token already verified, its session already read), in this
     * turn of the event loop; undefined when anything has to be checked or read first, or the
     * token is refused (viewerFromToken then says so).
     */
    keptViewer(token: string): Viewer | undefined {
      const now = Date.now();
      const claims = keptClaims(token, now);
      if (!claims || !hasSessionId(claims)) return undefined;
      const session = keptSession(claims.sid, now);
      return (session && viewerOf(claims, session)) ?? undefined;
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
