import {
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

/** A provider's account (Google's or Facebook's `sub`) that signs a user in. */
export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    /** The address the provider gave when it was linked (shown on /account/). */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oauth_identities_subject_key').on(t.provider, t.subject),
    // One account per provider and user: a second Google account would be a second way nobody sees.
    uniqueIndex('oauth_identities_user_provider_key').on(t.userId, t.provider),
  ],
);

/**
 * A sign-in under way, between /start and /callback: kept here rather than in a cookie so its
 * PKCE verifier and nonce never leave the server; the browser holds only the state (in an
 * HttpOnly cookie) that names it. Deleted when the callback reads it: a state works once.
 */
export const oauthFlows = pgTable(
  'oauth_flows',
  {
    /** sha256 of the state, so a database reader cannot finish someone's sign-in. */
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    redirect: text('redirect').notNull(),
    /** Set when a logged-in user links the provider from /account/. */
    linkUserId: integer('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oauth_flows_expires_idx').on(t.expiresAt)],
);

/**
 * The one-time code the callback hands the browser in the URL's fragment; POSTed back, it
 * becomes a session token (the token lives in localStorage, which a redirect cannot fill).
 */
export const oauthHandoffs = pgTable('oauth_handoffs', {
  codeHash: text('code_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  redirect: text('redirect').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** An address a user proved is theirs (a verification link, or a provider that says so). */
export const verifiedEmails = pgTable('verified_emails', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A verification link sent by e-mail; used_at makes it work once. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId, t.createdAt)],
);
