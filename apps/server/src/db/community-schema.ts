import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { stories, users } from './schema.ts';

/*
 * The community area's tables (migration 0018_community.sql, written by hand; keep both in
 * step). users.role is a column of users added there too: 'reader' | 'author' | 'editor' |
 * 'admin', with a trigger that keeps authors authors.
 */

const at = (name: string) => timestamp(name, { withTimezone: true });
const userRef = (name: string) =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** A person's bio and picture beside their account. */
export const communityProfiles = pgTable('community_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bio: text('bio').notNull().default(''),
  avatarVersion: text('avatar_version'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** A post: text, up to 4 images, or a share of a post or a story with a line of text. */
export const communityPosts = pgTable(
  'community_posts',
  {
    id: serial('id').primaryKey(),
    userId: userRef('user_id'),
    body: text('body').notNull(),
    lang: text('lang').notNull().default('en'),
    /** 'approved' | 'pending' | 'rejected' | 'removed'; others see approved and not hidden only. */
    status: text('status').notNull().default('approved'),
    statusReason: text('status_reason'),
    hiddenAt: at('hidden_at'),
    pinnedAt: at('pinned_at'),
    sharedPostId: integer('shared_post_id').references((): AnyPgColumn => communityPosts.id, {
      onDelete: 'set null',
    }),
    sharedStoryId: integer('shared_story_id').references(() => stories.id, {
      onDelete: 'set null',
    }),
    likesCount: integer('likes_count').notNull().default(0),
    commentsCount: integer('comments_count').notNull().default(0),
    sharesCount: integer('shares_count').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    editedAt: at('edited_at'),
  },
  (t) => [
    index('community_posts_feed_idx')
      .on(sql`${t.id} desc`)
      .where(sql`${t.status} = 'approved' and ${t.hiddenAt} is null`),
    index('community_posts_user_idx').on(t.userId, sql`${t.id} desc`),
  ],
);

/** An image of a post; postId null while it is its writer's draft. */
export const communityImages = pgTable('community_images', {
  id: serial('id').primaryKey(),
  userId: userRef('user_id'),
  postId: integer('post_id').references(() => communityPosts.id, { onDelete: 'cascade' }),
  position: smallint('position').notNull().default(0),
  version: text('version').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

export const communityLikes = pgTable(
  'community_likes',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const communityComments = pgTable('community_comments', {
  id: serial('id').primaryKey(),
  postId: integer('post_id')
    .notNull()
    .references(() => communityPosts.id, { onDelete: 'cascade' }),
  userId: userRef('user_id'),
  body: text('body').notNull(),
  lang: text('lang').notNull().default('en'),
  status: text('status').notNull().default('approved'),
  statusReason: text('status_reason'),
  hiddenAt: at('hidden_at'),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** Who a post (commentId null) or a comment mentions. */
export const communityMentions = pgTable(
  'community_mentions',
  {
    id: serial('id').primaryKey(),
    userId: userRef('user_id'),
    postId: integer('post_id')
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => communityComments.id, {
      onDelete: 'cascade',
    }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('community_mentions_key').on(t.userId, t.postId, sql`coalesce(${t.commentId}, 0)`),
  ],
);

/** One community notification; (userId, dedupeKey) is unique, so each is made once. */
export const communityNotifications = pgTable(
  'community_notifications',
  {
    id: serial('id').primaryKey(),
    userId: userRef('user_id'),
    kind: text('kind').notNull(),
    actorId: userRef('actor_id'),
    postId: integer('post_id').references(() => communityPosts.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => communityComments.id, {
      onDelete: 'cascade',
    }),
    excerpt: text('excerpt').notNull().default(''),
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    readAt: at('read_at'),
  },
  (t) => [uniqueIndex('community_notifications_dedupe_key').on(t.userId, t.dedupeKey)],
);

/** The audit log: written with the change it records, never updated. */
export const communityAudit = pgTable('community_audit', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
  action: text('action').notNull(),
  targetKind: text('target_kind').notNull(),
  targetId: integer('target_id').notNull(),
  reason: text('reason'),
  detail: jsonb('detail'),
  createdAt: at('created_at').notNull().defaultNow(),
});
