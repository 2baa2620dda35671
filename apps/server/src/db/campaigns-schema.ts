import {
  bigint,
  numeric,
  real,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  index,
} from 'drizzle-orm/pg-core';
import { stories, users } from './schema.ts';

/*
 * The campaigns' tables (migration 0023_campaigns.sql, written by hand; keep both in step).
 */

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A campaign: a questionnaire, a writing contest, or both, with its dates in both languages. */
export const campaigns = pgTable('campaigns', {
  id: serial('id').primaryKey(),
  titleEn: text('title_en').notNull(),
  titleSi: text('title_si').notNull(),
  descriptionEn: text('description_en').notNull().default(''),
  descriptionSi: text('description_si').notNull().default(''),
  prizesEn: text('prizes_en').notNull().default(''),
  prizesSi: text('prizes_si').notNull().default(''),
  startsAt: at('starts_at').notNull(),
  endsAt: at('ends_at').notNull(),
  contest: jsonb('contest'),
  reportUrl: text('report_url'),
  frozenRanking: jsonb('frozen_ranking'),
  bannerVersion: text('banner_version'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

const campaignRef = () =>
  integer('campaign_id')
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' });

/** One version of a campaign's questions; responses keep the version they answered. */
export const campaignQuestionnaires = pgTable(
  'campaign_questionnaires',
  {
    id: serial('id').primaryKey(),
    campaignId: campaignRef(),
    version: integer('version').notNull(),
    questions: jsonb('questions').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [unique('campaign_questionnaires_version_key').on(t.campaignId, t.version)],
);

const questionnaireRef = () =>
  integer('questionnaire_id')
    .notNull()
    .references(() => campaignQuestionnaires.id, { onDelete: 'cascade' });

/** A mobile that asked to take part, with the hash of the code sent to it. */
export const campaignParticipants = pgTable(
  'campaign_participants',
  {
    id: serial('id').primaryKey(),
    campaignId: campaignRef(),
    questionnaireId: questionnaireRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mobile: text('mobile').notNull(),
    carrier: text('carrier').notNull(),
    refId: text('ref_id').notNull().unique(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('campaign_participants_mobile_idx').on(t.mobile, t.createdAt),
    index('campaign_participants_user_idx').on(t.userId, t.createdAt),
  ],
);

/** A participant's answers; one per mobile per campaign. */
export const campaignResponses = pgTable(
  'campaign_responses',
  {
    id: serial('id').primaryKey(),
    campaignId: campaignRef(),
    questionnaireId: questionnaireRef(),
    participantId: integer('participant_id')
      .notNull()
      .references(() => campaignParticipants.id, { onDelete: 'cascade' }),
    mobile: text('mobile').notNull(),
    answers: jsonb('answers').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [unique('campaign_responses_mobile_key').on(t.campaignId, t.mobile)],
);

/** A story entered in a contest, with the editors' rubric score and winning place. */
export const campaignEntries = pgTable(
  'campaign_entries',
  {
    id: serial('id').primaryKey(),
    campaignId: campaignRef(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rubric: real('rubric'),
    winnerPlace: integer('winner_place'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [unique('campaign_entries_story_key').on(t.campaignId, t.storyId)],
);

/** Each fetch of an ad-metrics report: accepted with its figures, or refused with the reason. */
export const campaignReports = pgTable(
  'campaign_reports',
  {
    id: serial('id').primaryKey(),
    campaignId: campaignRef(),
    url: text('url').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    impressions: bigint('impressions', { mode: 'number' }),
    clicks: bigint('clicks', { mode: 'number' }),
    spend: numeric('spend', { precision: 14, scale: 2 }),
    fetchedAt: at('fetched_at').notNull().defaultNow(),
  },
  (t) => [index('campaign_reports_campaign_idx').on(t.campaignId, t.fetchedAt)],
);
