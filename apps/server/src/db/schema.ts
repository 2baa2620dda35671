import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  smallint,
  text,
  primaryKey,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** A set of date ranges ('{[2026-01-01,2026-01-03)}'): the days a reader read a story. */
const datemultirange = customType<{ data: string }>({ dataType: () => 'datemultirange' });
/**
 * The words of a story's Singlish title key as a full-text document: what the title arm's
 * indexes hold; search's SQL writes the same expression so the planner uses them.
 */
const titleWordsDoc = (titleKey: AnyPgColumn) =>
  sql`to_tsvector('simple', coalesce(${titleKey}, ''))`;

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
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    // Usernames are unique as readers see them (case and joiners aside): mentions find one person.
    uniqueIndex('users_username_key').on(sql`fold_key(${t.username})`),
  ],
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
    /** Singlish search key of the name's Sinhala words (singlishKey); null until computed. */
    nameKey: text('name_key'),
    /** SINGLISH_KEY_VERSION the key was computed with: start-up recomputes older ones. */
    singlishKeyVersion: smallint('singlish_key_version').notNull().default(0),
  },
  (t) => [
    uniqueIndex('authors_user_key').on(t.userId),
    // Pen names are unique as readers see them: case and zero-width joiners do not count.
    uniqueIndex('authors_name_key').on(sql`fold_key(${t.name})`),
    index('authors_name_singlish_trgm_idx').using('gin', sql`${t.nameKey} gin_trgm_ops`),
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
    /** Reads shown in lists: readsBase plus counted views, kept by the views roll-up job. */
    reads: integer('reads').notNull().default(0),
    /** Reads from before views were counted here (the demo's history); never changes. */
    readsBase: integer('reads_base').notNull().default(0),
    /**
     * Mean of readers' ratings (0 to 5) with ratingCount, brought up to date from the rating rows by
     * the engagement.ratings job within seconds of a rating (a rating writes only its own row).
     */
    rating: real('rating').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    /** Bayesian average that sortBy=rate orders by: one 5-star vote cannot top a well-rated story. */
    ratingScore: real('rating_score').notNull().default(0),
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
    /**
     * Singlish search keys (singlishKey, computed in TypeScript on write) of the Sinhala words of
     * the title and description: 'gedara' and 'gedhara' find ගෙදර. Null until computed.
     */
    titleKey: text('title_key'),
    descriptionKey: text('description_key'),
    /** The same keys as a full-text document: title and author (A), description (B), episodes (D). */
    singlishDoc: tsvector('singlish_doc'),
    /** SINGLISH_KEY_VERSION the keys were computed with: start-up recomputes older ones. */
    singlishKeyVersion: smallint('singlish_key_version').notNull().default(0),
  },
  (t) => [
    index('stories_author_idx').on(t.authorId),
    index('stories_category_idx').on(t.category),
    index('stories_search_idx').using('gin', t.searchDoc),
    index('stories_rating_score_idx').on(t.ratingScore),
    index('stories_title_trgm_idx').using('gin', sql`fold_key(${t.title}) gin_trgm_ops`),
    // The Singlish title arm matches title words (title_words, migration 0016), by this index.
    index('stories_title_words_idx').using('gin', titleWordsDoc(t.titleKey)),
    index('stories_singlish_idx').using('gin', t.singlishDoc),
    // Search's read tiers (READ_TIERS in modules/stories/repo.ts): the most-read stories' own
    // full-text indexes, so a word in most stories is answered from them (migration 0014).
    index('stories_search_reads_1000_idx')
      .using('gin', t.searchDoc)
      .where(sql`${t.reads} >= 1000`),
    index('stories_search_reads_100_idx')
      .using('gin', t.searchDoc)
      .where(sql`${t.reads} >= 100`),
    index('stories_singlish_reads_1000_idx')
      .using('gin', t.singlishDoc)
      .where(sql`${t.reads} >= 1000`),
    index('stories_singlish_reads_100_idx')
      .using('gin', t.singlishDoc)
      .where(sql`${t.reads} >= 100`),
    // Titles do not follow reads: the Singlish title arm's tiers are wider (TITLE_TIERS, 0015).
    index('stories_title_words_reads_50_idx')
      .using('gin', titleWordsDoc(t.titleKey))
      .where(sql`${t.reads} >= 50`),
    index('stories_title_words_reads_30_idx')
      .using('gin', titleWordsDoc(t.titleKey))
      .where(sql`${t.reads} >= 30`),
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
  /** When its jobs were enqueued; null until the dispatcher (jobs/events.ts) has done it. */
  dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
});

/**
 * A mobile number's subscription to a billing app, as the carrier reports it. A row may exist
 * before any account claims it (joined by SMS); `user_id` is set when a user proves the mobile
 * with a code. A user is subscribed to an app while a row of theirs for it is 'active'.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    appId: text('app_id')
      .notNull()
      .references(() => billingApps.appId),
    /** 94XXXXXXXXX: the carrier's subscriber number without 'tel:'. */
    mobile: text('mobile').notNull(),
    /** 'active' (paid up), 'lapsed' (a charge failed) or 'ended' (UNREG). */
    status: text('status').notNull().default('active'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The carrier time of the last notification applied: older ones arriving late change nothing. */
    stateAt: timestamp('state_at', { withTimezone: true }).notNull().defaultNow(),
    nextChargeAt: timestamp('next_charge_at', { withTimezone: true }),
    lastChargedAt: timestamp('last_charged_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('subscriptions_app_mobile_key').on(t.appId, t.mobile),
    index('subscriptions_user_idx').on(t.userId, t.appId),
  ],
);

/**
 * A subscription code asked for on the web. The code itself lives only at the carrier (hashed
 * by it); this row ties the carrier's reference to the account that asked and counts tries.
 */
export const membershipCodes = pgTable(
  'membership_codes',
  {
    /** The refId the client sees: random, unguessable, owned by `user_id`. */
    refId: text('ref_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => billingApps.appId),
    mobile: text('mobile').notNull(),
    /** The carrier's referenceNo for the OTP it sent. */
    carrierRef: text('carrier_ref').notNull(),
    /** The story whose wall the code was asked from, if any (members gained, in statistics). */
    storyId: integer('story_id').references(() => stories.id, { onDelete: 'set null' }),
    /** sha256 of the code when we generate it ourselves; null when the carrier keeps it. */
    codeHash: text('code_hash'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('membership_codes_mobile_idx').on(t.mobile, t.createdAt),
    index('membership_codes_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Every carrier notification applied, by the carrier's id: a repeat changes nothing. */
export const carrierNotifications = pgTable('carrier_notifications', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  appId: text('app_id').notNull(),
  mobile: text('mobile').notNull(),
  /** When the carrier says it happened. */
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  /** The notification as received (JSON text), for audit. */
  payload: text('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A reader who wants an SMS when a story gets a new episode. */
export const storyAlerts = pgTable(
  'story_alerts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.storyId] }),
    index('story_alerts_story_idx').on(t.storyId),
  ],
);

/** Mobiles that texted STOP: no alert SMS goes to them until the reader turns an alert on again. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  mobile: text('mobile').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One alert SMS per mobile per published episode: written by the fan-out job before sending,
 * marked sent after, so a crash in between resends (the carrier drops the repeat by its ref).
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    storyId: integer('story_id').notNull(),
    appId: text('app_id').notNull(),
    mobile: text('mobile').notNull(),
    /** 'pending', 'sent' or 'skipped' (opted out after the fan-out). */
    status: text('status').notNull().default('pending'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alert_deliveries_event_mobile_key').on(t.eventId, t.mobile),
    index('alert_deliveries_pending_idx').on(t.eventId, t.status),
    // STOP finds a mobile's unsent alerts without reading the whole table.
    index('alert_deliveries_mobile_pending_idx')
      .on(t.mobile)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** The mailing list: an address is on it once it confirmed through a signed link. */
export const mailingList = pgTable('mailing_list', {
  /** Lower-cased address. */
  email: text('email').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  subscribed: boolean('subscribed').notNull().default(false),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Confirmation e-mails asked for: counted per address to send at most a few an hour. */
export const mailRequests = pgTable(
  'mail_requests',
  {
    id: serial('id').primaryKey(),
    /** Lower-cased address. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_requests_email_idx').on(t.email, t.createdAt)],
);

/**
 * One list e-mail of an event to one address, written before it is sent: a rerun of the job
 * sends only rows still unsent, so each address gets the event's e-mail once.
 */
export const mailDeliveries = pgTable(
  'mail_deliveries',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** Null until the transport took the message. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.email] })],
);

/** One rating per reader per story (0 to 5 in half steps; claps are a rating of 1 to 5). */
export const ratings = pgTable(
  'ratings',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    rating: real('rating').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.storyId] }),
    index('ratings_story_idx').on(t.storyId),
    // The leaderboard's week and month boards read only the period's ratings.
    index('ratings_updated_idx').on(t.updatedAt),
  ],
);

export const bookmarks = pgTable(
  'bookmarks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.storyId] }),
    index('bookmarks_story_idx').on(t.storyId),
  ],
);

/** Where a reader is in a story, so Continue reading works on any device. */
export const readingProgress = pgTable(
  'reading_progress',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    /** How far down the episode, 0 to 1. */
    position: real('position').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.storyId] }),
    index('reading_progress_recent_idx').on(t.userId, t.updatedAt),
  ],
);

/**
 * A counted view: at most one per reader, story, part and Sri Lanka day (the key says so, an
 * insert that conflicts does nothing). Inserts only: the story row is never locked by a read.
 */
export const storyViews = pgTable(
  'story_views',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    day: date('day').notNull(),
    medium: text('medium').notNull().default('WEB'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.storyId, t.userId, t.partNumber, t.day] }),
    index('story_views_day_idx').on(t.day, t.storyId),
    // Readers per part (the statistics roll-up counts distinct readers of the parts just read).
    index('story_views_story_part_idx').on(t.storyId, t.partNumber, t.userId),
  ],
);

/** Views per story per day, summed by the roll-up job: trending and statistics read these. */
export const storyViewDays = pgTable(
  'story_view_days',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.day] }), index('story_view_days_day_idx').on(t.day)],
);

/** A comment on an episode, or a reply to one (parentId). Text is stored as typed (NFC). */
export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    episodeId: integer('episode_id').references(() => episodes.id, { onDelete: 'set null' }),
    partNumber: integer('part_number').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id'),
    body: text('body').notNull(),
    platform: text('platform').notNull().default('web'),
    repliesCount: integer('replies_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('comments_story_part_idx').on(t.storyId, t.partNumber, t.createdAt, t.id),
    index('comments_parent_idx').on(t.parentId, t.createdAt, t.id),
    index('comments_user_idx').on(t.userId),
  ],
);

/** Who a comment mentions, resolved when it is posted; the notification job reads these. */
export const commentMentions = pgTable(
  'comment_mentions',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);

/** A reader's report of a comment; the editors' review queue reads the open ones. */
export const commentReports = pgTable(
  'comment_reports',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    /** 'open' until an editor decides ('kept' | 'removed'). */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.userId] }),
    index('comment_reports_status_idx').on(t.status, t.createdAt),
  ],
);

/** A user following another (authors are users too). */
export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followedId: integer('followed_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followedId] }),
    index('follows_followed_idx').on(t.followedId),
  ],
);

/**
 * A notification for one user. `dedupeKey` names what caused it (event and reason): the unique
 * index makes a rerun job insert nothing new, so each is made exactly once.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'story' | 'comment' (SPEC.md 9). */
    type: text('type').notNull(),
    /** NEW STORY | NEW EPISODE | NEW COMMENT (mentions too). */
    title: text('title').notNull(),
    description: text('description').notNull(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    episode: integer('episode').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_key').on(t.userId, t.dedupeKey),
    index('notifications_user_idx').on(t.userId, t.createdAt),
  ],
);

/** A browser that allowed Web Push for a user. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * A membership that began (a number became active for a user on the web): the story whose wall
 * it began on, if any. Authors' statistics count members gained from these.
 */
export const membershipJoins = pgTable(
  'membership_joins',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    appId: text('app_id')
      .notNull()
      .references(() => billingApps.appId),
    storyId: integer('story_id').references(() => stories.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('membership_joins_story_idx').on(t.storyId, t.joinedAt)],
);

/** Views per part per Sri Lanka day, summed by the roll-up job: statistics read these. */
export const storyPartViewDays = pgTable(
  'story_part_view_days',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    day: date('day').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.partNumber, t.day] })],
);

/** Distinct readers who ever opened each part (the drop-off), kept by the roll-up job. */
export const storyPartReach = pgTable(
  'story_part_reach',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    readers: integer('readers').notNull().default(0),
    /** All views of the part ever (all-time statistics read this, not every day's row). */
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.partNumber] })],
);

/**
 * Each reader of a story with the Sri Lanka days they read it, kept by the statistics roll-up:
 * distinct readers over any days are counted from these (one row per reader and story) rather
 * than from every view.
 */
export const storyReaders = pgTable(
  'story_readers',
  {
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    days: datemultirange('days').notNull(),
  },
  (t) => [primaryKey({ columns: [t.storyId, t.userId] })],
);

/**
 * The deployment's token signing keys (Ed25519), shared by every instance. The newest key without
 * `retire_after` signs; every key whose `retire_after` is ahead (or null) verifies. The private
 * JWK is `enc:v1:...` (AES-256-GCM under KEY_ENCRYPTION_SECRET) or plain JSON.
 */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: jsonb('public_jwk').notNull(),
  privateJwk: text('private_jwk').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  retireAfter: timestamp('retire_after', { withTimezone: true }),
});

/** Other secrets every instance must share (carrier webhook secret, VAPID pair), by name. */
export const deploymentSecrets = pgTable('deployment_secrets', {
  name: text('name').primaryKey(),
  /** `enc:v1:...` (AES-256-GCM under KEY_ENCRYPTION_SECRET) or the plain value. */
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rate-limit counters shared by every instance on PostgreSQL: one row per limiter key and fixed
 * window (its start in epoch milliseconds). UNLOGGED in the migration: counters need no crash
 * safety, and skipping the WAL halves the cost of the upsert every counted request makes.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    hits: integer('hits').notNull().default(1),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.windowStart] }),
    index('rate_limit_hits_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Each distinct word of the stories' Singlish title keys (as `to_tsvector('simple', title_key)`
 * splits them). Search finds the title words like a query word here (word_similarity within one
 * word, by trigram), then the stories whose titles hold one of them (stories_title_words_idx).
 * Added to when a title key is written; never pruned (a word no title holds any more finds nothing).
 */
export const titleWords = pgTable('title_words', { word: text('word').primaryKey() }, (t) => [
  index('title_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`),
]);

/**
 * The search vocabulary: each distinct word (4 letters or more) of the stories' search documents
 * (title, author, description, published episodes; folded), with how many stories hold it. Typo
 * tolerance looks candidates up here by trigram, then checks them exactly (modules/stories/typos).
 * Kept in the transaction that refreshes a story's search document, so drafts never add words.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
    stories: integer('stories').notNull().default(0),
  },
  (t) => [index('search_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`)],
);
