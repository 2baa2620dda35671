import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { comments, users } from './schema.ts';

/* The editors' review (migration 0019_moderation.sql). */

/**
 * One target waiting for an editor: opened when the target is held back or first flagged,
 * closed with a decision. A target has at most one open case; its closed ones are its history.
 */
export const reviewCases = pgTable(
  'review_cases',
  {
    id: serial('id').primaryKey(),
    /** 'post' | 'profile' | 'comment' (a story comment) | 'post_comment'. */
    kind: text('kind').notNull(),
    targetId: integer('target_id').notNull(),
    /** 'open' | 'approved' | 'rejected' | 'ignored'. */
    status: text('status').notNull().default('open'),
    /** Why the target was held back before anyone saw it; null when only flagged. */
    heldReason: text('held_reason'),
    /** True when flags hid the target until a decision. */
    hidden: boolean('hidden').notNull().default(false),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The sentence shown to the writer with a rejection. */
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('review_cases_open_key')
      .on(t.kind, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index('review_cases_queue_idx')
      .on(t.openedAt, t.id)
      .where(sql`${t.status} = 'open'`),
    index('review_cases_target_idx').on(t.kind, t.targetId),
  ],
);

/** A person's flag of a target, with the reason: one per person per target. */
export const reviewFlags = pgTable(
  'review_flags',
  {
    kind: text('kind').notNull(),
    targetId: integer('target_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    caseId: integer('case_id')
      .notNull()
      .references(() => reviewCases.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.targetId, t.userId] }),
    index('review_flags_case_idx').on(t.caseId, t.createdAt),
  ],
);

/** A case's history: 'held' | 'flagged' | 'hidden' | 'approved' | 'rejected' | 'ignored'. */
export const reviewEvents = pgTable(
  'review_events',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => reviewCases.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('review_events_case_idx').on(t.caseId, t.at, t.id)],
);

/** A word editors keep: posts and comments containing it wait for review. */
export const reviewWords = pgTable(
  'review_words',
  {
    id: serial('id').primaryKey(),
    /** As the editor typed it (NFC). */
    word: text('word').notNull(),
    /** Its main folded key (singlishKey): two spellings of one word share it. */
    key: text('key').notNull(),
    /** Every folded key it matches by (singlishKeys). */
    keys: text('keys').array().notNull(),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('review_words_key').on(t.key)],
);

/** A story comment an editor rejected: hidden from everyone but its writer. */
export const rejectedComments = pgTable('rejected_comments', {
  commentId: integer('comment_id')
    .primaryKey()
    .references(() => comments.id, { onDelete: 'cascade' }),
  reason: text('reason'),
  rejectedAt: timestamp('rejected_at', { withTimezone: true }).notNull().defaultNow(),
});
