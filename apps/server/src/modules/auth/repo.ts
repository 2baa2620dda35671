import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/client.ts';
import { authors, sessions, users } from '../../db/schema.ts';
import { CACHE_CHANNEL } from '../../cache/changes.ts';

/** Queries behind accounts and sessions. */
export const authRepo = (db: Db) => ({
  findUserByEmail: async (email: string) =>
    (
      await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
        .limit(1)
    )[0],

  findUser: async (id: number) =>
    (await db.select().from(users).where(eq(users.id, id)).limit(1))[0],

  /** Whether an account has this e-mail, and another this username as readers see it: one read. */
  taken: async (email: string, username: string) => {
    const found = (await db.execute(sql`
      select exists (select 1 from users where lower(email) = lower(${email})) as email,
        exists (select 1 from users where fold_key(username) = fold_key(${username})) as username`)) as unknown as {
      rows: { email: boolean; username: boolean }[];
    };
    return found.rows[0]!;
  },

  /**
   * A new account with its first session, in one statement that also announces it ('joined'
   * on the cache channel); undefined when a unique index refused the account (the e-mail or
   * username was taken meanwhile), and then no session.
   */
  insertUserWithSession: async (
    v: { email: string; passwordHash: string; username: string },
    session: { id: string; expiresAt: Date },
  ) => {
    const inserted = (await db.execute(sql`
      with u as (
        insert into users (email, password_hash, username)
        values (${v.email}, ${v.passwordHash}, ${v.username})
        on conflict do nothing returning id, username),
      s as (
        insert into sessions (id, user_id, expires_at)
        select ${session.id}, u.id, ${session.expiresAt.toISOString()}::timestamptz from u)
      select id, username, pg_notify(${CACHE_CHANNEL},
        concat_ws(':', 'joined', id, ${session.id}::text, ${String(session.expiresAt.getTime())}::text, username))
      from u`)) as unknown as {
      rows: { id: number; username: string }[];
    };
    return inserted.rows[0];
  },

  /** Replaces a password hash (a rehash at login), unless it changed meanwhile. */
  setPasswordHash: (id: number, old: string, passwordHash: string) =>
    db
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, id), eq(users.passwordHash, old))),

  /** True when someone other than `exceptId` has this username as readers see it (case, joiners aside). */
  usernameTaken: async (username: string, exceptId = 0) =>
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(sql`fold_key(${users.username}) = fold_key(${username})`, ne(users.id, exceptId)),
        )
        .limit(1)
    ).length > 0,

  /** Sets the username; false when the unique index refused it (someone took it meanwhile). */
  setUsername: async (id: number, username: string) => {
    try {
      await db.update(users).set({ username }).where(eq(users.id, id));
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  },

  insertSession: (v: { id: string; userId: number; expiresAt: Date }) =>
    db.insert(sessions).values(v),

  /** The live session with its user, or nothing when revoked, expired or unknown. */
  findLiveSession: async (id: string) =>
    (
      await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
        )
        .limit(1)
    )[0],

  extendSession: (id: string, expiresAt: Date) =>
    db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id)),

  revokeSession: (id: string) =>
    db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt))),

  isAuthor: async (userId: number) =>
    (await db.select({ id: authors.id }).from(authors).where(eq(authors.userId, userId)).limit(1))
      .length > 0,
});
export type AuthRepo = ReturnType<typeof authRepo>;
