import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  pgTable,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    username: text('username').notNull(),
    isAuthor: boolean('is_author').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

/** One row per login; logout sets revoked_at and the token stops working at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull().default('web'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** A carrier billing app: subscribers of it may read its members-only stories. */
export const billingApps = pgTable('billing_apps', {
  appId: text('app_id').primaryKey(),
  name: text('name').notNull(),
  keyword: text('keyword').notNull(),
});

export const authors = pgTable(
  'authors',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    bio: text('bio').notNull().default(''),
    /** The author's own billing app; null means the product app. */
    appId: text('app_id').references(() => billingApps.appId),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('authors_user_key').on(t.userId),
    // Pen names are unique as readers see them: case and zero-width joiners do not count.
    uniqueIndex('authors_name_key').on(sql`fold_key(${t.name})`),
  ],
);

export const categories = pgTable('categories', {
  slug: text('slug').primaryKey(),
  nameEn: text('name_en').notNull(),
  nameSi: text('name_si').notNull(),
});

export const series = pgTable('series', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  /** The author whose stories are its seasons; only they may add a season. */
  authorId: integer('author_id').references(() => authors.id),
});

export const stories = pgTable(
  'stories',
  {
    id: serial('id').primaryKey(),
    authorId: integer('author_id')
      .notNull()
      .references(() => authors.id),
    title: text('title').notNull(),
    description: text('description').notNull(),
    kind: smallint('kind').notNull().default(0),
    membersOnly: boolean('members_only').notNull().default(false),
    ongoing: boolean('ongoing').notNull().default(true),
    language: text('language').notNull(),
    category: text('category')
      .notNull()
      .references(() => categories.slug),
    seriesId: integer('series_id').references(() => series.id),
    season: integer('season'),
    /** Null or past: published; future: listed as upcoming. */
    releaseAt: timestamp('release_at', { withTimezone: true }),
    reads: integer('reads').notNull().default(0),
    rating: real('rating').notNull().default(0),
    /** Highest part number now published: the reader's paginator runs 1..numberOfParts. */
    numberOfParts: integer('number_of_parts').notNull().default(0),
    /** Highest part number ever given: numbers are never reused, so shared links stay true. */
    lastPartNumber: integer('last_part_number').notNull().default(0),
    /** Set when the author uploaded a cover; until then a generated one is shown. */
    coverUploadedAt: timestamp('cover_uploaded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Full-text document over title, author, description and episodes, ZWJ folded. */
    searchDoc: tsvector('search_doc'),
  },
  (t) => [
    index('stories_author_idx').on(t.authorId),
    index('stories_category_idx').on(t.category),
    index('stories_search_idx').using('gin', t.searchDoc),
    index('stories_title_trgm_idx').using('gin', sql`fold_key(${t.title}) gin_trgm_ops`),
  ],
);

export const episodes = pgTable(
  'episodes',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    /** Given when the episode first goes out, kept through edits and unpublishing. */
    partNumber: integer('part_number'),
    title: text('title').notNull(),
    /** Sanitized HTML: p, strong, em, br, hr (a scene break). */
    content: text('content').notNull(),
    membersOnly: boolean('members_only').notNull().default(false),
    /** Words in the text, counted on save, so the author's lists never read whole episodes. */
    words: integer('words').notNull().default(0),
    /** 'draft' | 'scheduled' | 'published'. */
    status: text('status').notNull().default('draft'),
    /** When a scheduled episode goes out. */
    publishAt: timestamp('publish_at', { withTimezone: true }),
    /** When it first went out. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('episodes_story_part_key').on(t.storyId, t.partNumber),
    index('episodes_story_status_idx').on(t.storyId, t.status),
  ],
);

/**
 * What happened, written in the same transaction as the change (an outbox): jobs that react to
 * it (notifications, SMS alerts) are enqueued in that transaction too, so none is lost or doubled.
 */
export const events = pgTable('events', {
  id: serial('id').primaryKey(),
  type: text('type').notNull(),
  payload: text('payload').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's subscription to a billing app; written by the membership flow. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => billingApps.appId),
    mobile: text('mobile'),
    status: text('status').notNull().default('active'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('subscriptions_user_app_key').on(t.userId, t.appId)],
);
