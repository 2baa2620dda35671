import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { stories, users } from './schema.ts';

/**
 * An author's narration of a story (issue 29, migration 0020). `prefix` names the renditions in
 * storage (audio/{prefix}/...); it is set only when the processing job flips the track to ready,
 * and a new one is made on every run, so a crashed run never leaves a half track live.
 */
export const audioTracks = pgTable(
  'audio_tracks',
  {
    id: serial('id').primaryKey(),
    storyId: integer('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** The episode it narrates; null for an audio book of the whole story. */
    partNumber: integer('part_number'),
    membersOnly: boolean('members_only').notNull().default(false),
    position: integer('position').notNull(),
    status: text('status')
      .$type<'processing' | 'ready' | 'failed'>()
      .notNull()
      .default('processing'),
    reason: text('reason'),
    /** The upload as the author sent it, until the job has made the renditions. */
    sourceKey: text('source_key'),
    prefix: text('prefix'),
    durationSeconds: real('duration_seconds'),
    standardBytes: integer('standard_bytes'),
    saverBytes: integer('saver_bytes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audio_tracks_story_idx').on(t.storyId, t.position),
    uniqueIndex('audio_tracks_prefix_idx').on(t.prefix),
  ],
);

/** Where a listener is in a track, so they resume on another device. */
export const audioPositions = pgTable(
  'audio_positions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: integer('track_id')
      .notNull()
      .references(() => audioTracks.id, { onDelete: 'cascade' }),
    positionSeconds: real('position_seconds').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'audio_positions_pk', columns: [t.userId, t.trackId] })],
);
