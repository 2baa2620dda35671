import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users } from '../../db/schema.ts';
import { authRepo } from '../auth/repo.ts';
import {
  emailVerifications,
  oauthFlows,
  oauthHandoffs,
  oauthIdentities,
  verifiedEmails,
} from '../../db/oauth-schema.ts';

const pick = <T extends object, K extends keyof T>(o: T, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

/** Queries behind provider sign-in, linked providers and verified e-mail addresses. */
export const oauthRepo = (db: Db) => ({
  // Accounts are read as the password login reads them.
  ...pick(authRepo(db), 'findUser', 'findUserByEmail', 'usernameTaken'),

  insertFlow: (v: typeof oauthFlows.$inferInsert) => db.insert(oauthFlows).values(v),

  /** Takes the flow a state names (it works once) and drops flows long expired on the way. */
  takeFlow: async (stateHash: string) => {
    await db.delete(oauthFlows).where(sql`${oauthFlows.expiresAt} < now() - interval '1 day'`);
    return (await db.delete(oauthFlows).where(eq(oauthFlows.stateHash, stateHash)).returning())[0];
  },

  insertHandoff: (v: typeof oauthHandoffs.$inferInsert) => db.insert(oauthHandoffs).values(v),

  /** Takes a live handoff (once); an expired one is gone too. */
  takeHandoff: async (codeHash: string) => {
    await db
      .delete(oauthHandoffs)
      .where(sql`${oauthHandoffs.expiresAt} < now() - interval '1 hour'`);
    const row = (
      await db.delete(oauthHandoffs).where(eq(oauthHandoffs.codeHash, codeHash)).returning()
    )[0];
    return row && row.expiresAt.getTime() > Date.now() ? row : undefined;
  },

  findIdentity: async (provider: string, subject: string) =>
    (
      await db
        .select()
        .from(oauthIdentities)
        .where(and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.subject, subject)))
        .limit(1)
    )[0],

  identitiesOf: (userId: number) =>
    db
      .select()
      .from(oauthIdentities)
      .where(eq(oauthIdentities.userId, userId))
      .orderBy(asc(oauthIdentities.createdAt)),

  /** Links; false when the unique indexes refused it (linked meanwhile, here or elsewhere). */
  link: async (v: { userId: number; provider: string; subject: string; email: string | null }) => {
    try {
      await db.insert(oauthIdentities).values(v);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  },

  unlink: (userId: number, provider: string) =>
    db
      .delete(oauthIdentities)
      .where(and(eq(oauthIdentities.userId, userId), eq(oauthIdentities.provider, provider)))
      .returning({ id: oauthIdentities.id }),

  /** True when the user's current address is the one they proved (case aside). */
  emailVerified: async (userId: number) =>
    (
      await db
        .select({ id: verifiedEmails.userId })
        .from(verifiedEmails)
        .innerJoin(users, eq(users.id, verifiedEmails.userId))
        .where(
          and(
            eq(verifiedEmails.userId, userId),
            sql`lower(${verifiedEmails.email}) = lower(${users.email})`,
          ),
        )
        .limit(1)
    ).length > 0,

  markVerified: (userId: number, email: string) =>
    db
      .insert(verifiedEmails)
      .values({ userId, email })
      .onConflictDoUpdate({
        target: verifiedEmails.userId,
        set: { email, verifiedAt: new Date() },
      }),

  /** A new account made from a provider's profile; undefined when the address or name was taken meanwhile. */
  insertUser: async (v: { email: string; username: string; passwordHash: string }) =>
    (await db.insert(users).values(v).onConflictDoNothing().returning())[0],

  insertVerification: (v: { id: string; userId: number; email: string; expiresAt: Date }) =>
    db.insert(emailVerifications).values(v),

  findVerification: async (id: string) =>
    (await db.select().from(emailVerifications).where(eq(emailVerifications.id, id)).limit(1))[0],

  /** Marks a live, unused link used; false when it was used or has expired. */
  useVerification: async (id: string) =>
    (
      await db
        .update(emailVerifications)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(emailVerifications.id, id),
            isNull(emailVerifications.usedAt),
            gt(emailVerifications.expiresAt, new Date()),
          ),
        )
        .returning({ id: emailVerifications.id })
    ).length > 0,

  /** Links sent to this user since `since` (a few an hour). */
  verificationsSince: async (userId: number, since: Date) =>
    (
      await db
        .select({ id: emailVerifications.id })
        .from(emailVerifications)
        .where(and(eq(emailVerifications.userId, userId), gt(emailVerifications.createdAt, since)))
    ).length,
});
export type OAuthRepo = ReturnType<typeof oauthRepo>;
