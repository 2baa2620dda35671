import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const rowsOf = async <T>(db: Db, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** A track as the author's page and the job see it. */
export interface TrackRow {
  trackId: number;
  storyId: number;
  title: string;
  partNumber: number | null;
  /** The track's own flag; a members-only story makes every track members-only (storyMembersOnly). */
  membersOnly: boolean;
  storyMembersOnly: boolean;
  position: number;
  status: 'processing' | 'ready' | 'failed';
  reason: string | null;
  sourceKey: string | null;
  prefix: string | null;
  durationSeconds: number | null;
  standardBytes: number | null;
  saverBytes: number | null;
  updatedAt: Date;
}

/** A track readers may hear: ready, with its renditions' prefix and sizes. */
export interface ReadyTrack {
  trackId: number;
  storyId: number;
  title: string;
  partNumber: number | null;
  /** Members-only, by its own flag or its story's. */
  membersOnly: boolean;
  prefix: string;
  durationSeconds: number;
  standardBytes: number;
  saverBytes: number;
  updatedAt: Date;
}

const trackColumns = sql`t.id as "trackId", t.story_id as "storyId", t.title,
  t.part_number as "partNumber", t.members_only as "membersOnly",
  s.members_only as "storyMembersOnly", t.position, t.status, t.reason,
  t.source_key as "sourceKey", t.prefix, t.duration_seconds as "durationSeconds",
  t.standard_bytes as "standardBytes", t.saver_bytes as "saverBytes", t.updated_at as "updatedAt"`;

const toTrack = (r: TrackRow): TrackRow => ({
  ...r,
  durationSeconds: r.durationSeconds === null ? null : Number(r.durationSeconds),
  updatedAt: new Date(r.updatedAt),
});

const toReady = (r: TrackRow): ReadyTrack => ({
  trackId: r.trackId,
  storyId: r.storyId,
  title: r.title,
  partNumber: r.partNumber,
  membersOnly: r.membersOnly || r.storyMembersOnly,
  prefix: r.prefix!,
  durationSeconds: Number(r.durationSeconds),
  standardBytes: Number(r.standardBytes),
  saverBytes: Number(r.saverBytes),
  updatedAt: new Date(r.updatedAt),
});

/** SQL of the audio module: tracks, their processing state and listeners' positions. */
export function audioRepo(db: Db) {
  const rows = <T>(query: SQL) => rowsOf<T>(db, query);
  return {
    /** Every track of a story in order, whatever its state (the author's page). */
    tracks: async (storyId: number) =>
      (
        await rows<TrackRow>(sql`select ${trackColumns} from audio_tracks t
          join stories s on s.id = t.story_id where t.story_id = ${storyId}
          order by t.position, t.id`)
      ).map(toTrack),

    track: async (trackId: number, opts: { lock?: boolean } = {}) => {
      const [r] = await rows<TrackRow>(sql`select ${trackColumns} from audio_tracks t
        join stories s on s.id = t.story_id where t.id = ${trackId}
        ${opts.lock ? sql`for update of t` : sql``}`);
      return r && toTrack(r);
    },

    /** A story's tracks readers may hear, in order. */
    readyTracks: async (storyId: number): Promise<ReadyTrack[]> =>
      (
        await rows<TrackRow>(sql`select ${trackColumns} from audio_tracks t
          join stories s on s.id = t.story_id
          where t.story_id = ${storyId} and t.status = 'ready'
          order by t.position, t.id`)
      ).map(toReady),

    /** The ready track whose renditions are under `prefix`. */
    readyByPrefix: async (prefix: string): Promise<ReadyTrack | undefined> => {
      const [r] = await rows<TrackRow>(sql`select ${trackColumns} from audio_tracks t
        join stories s on s.id = t.story_id where t.prefix = ${prefix} and t.status = 'ready'`);
      return r && toReady(r);
    },

    /** Adds a track after the story's others; it is processing until its job is done. */
    insert: async (v: {
      storyId: number;
      title: string;
      partNumber: number | null;
      membersOnly: boolean;
      sourceKey: string;
    }) => {
      const [r] = await rows<{ id: number }>(sql`
        insert into audio_tracks (story_id, title, part_number, members_only, position, source_key)
        values (${v.storyId}, ${v.title}, ${v.partNumber}, ${v.membersOnly},
          (select coalesce(max(position), 0) + 1 from audio_tracks where story_id = ${v.storyId}),
          ${v.sourceKey})
        returning id`);
      return r!.id;
    },

    /** Changes what the author may change of a track (not its order: see reorder). */
    update: (
      trackId: number,
      v: { title: string; partNumber: number | null; membersOnly: boolean },
    ) =>
      db.execute(sql`update audio_tracks set title = ${v.title}, part_number = ${v.partNumber},
        members_only = ${v.membersOnly}, updated_at = now() where id = ${trackId}`),

    /** Numbers a story's tracks 1, 2, ... in the order given. */
    reorder: async (ids: number[]) => {
      for (const [i, id] of ids.entries())
        await db.execute(sql`update audio_tracks set position = ${i + 1} where id = ${id}
          and position <> ${i + 1}`);
    },

    /**
     * The job's last step: the renditions under `prefix` become the track, in one statement.
     * False when the track is no longer waiting for them (deleted, or done by another run).
     */
    markReady: async (
      trackId: number,
      v: { prefix: string; durationSeconds: number; standardBytes: number; saverBytes: number },
    ) =>
      (
        await rows(sql`update audio_tracks set status = 'ready', reason = null, prefix = ${v.prefix},
          duration_seconds = ${v.durationSeconds}, standard_bytes = ${v.standardBytes},
          saver_bytes = ${v.saverBytes}, source_key = null, updated_at = now()
          where id = ${trackId} and status = 'processing' returning id`)
      ).length > 0,

    markFailed: (trackId: number, reason: string) =>
      db.execute(sql`update audio_tracks set status = 'failed', reason = ${reason},
        updated_at = now() where id = ${trackId} and status = 'processing'`),

    delete: (trackId: number) => db.execute(sql`delete from audio_tracks where id = ${trackId}`),

    /** One listener's positions in every track, by track. */
    positions: async (userId: number) => {
      const found = await rows<{ trackId: number; seconds: number }>(sql`
        select track_id as "trackId", position_seconds as seconds
        from audio_positions where user_id = ${userId}`);
      return new Map(found.map((r) => [r.trackId, Number(r.seconds)]));
    },

    savePosition: (userId: number, trackId: number, seconds: number) =>
      db.execute(sql`insert into audio_positions (user_id, track_id, position_seconds, updated_at)
        values (${userId}, ${trackId}, ${seconds}, now())
        on conflict (user_id, track_id) do update set position_seconds = excluded.position_seconds,
          updated_at = excluded.updated_at`),

    /**
     * Continue reading moves to part `partNumber` of the story, from its top, when that part is
     * published and the reader is not already further; else nothing changes. Whether it is there.
     */
    continueAt: async (userId: number, storyId: number, partNumber: number) =>
      (
        await rows(sql`
          insert into reading_progress (user_id, story_id, part_number, position, updated_at)
          select ${userId}, e.story_id, e.part_number, 0, now() from episodes e
          where e.story_id = ${storyId} and e.part_number = ${partNumber}
            and e.status = 'published'
          on conflict (user_id, story_id) do update set part_number = excluded.part_number,
            position = 0, updated_at = excluded.updated_at
          where reading_progress.part_number <= excluded.part_number
          returning 1`)
      ).length > 0,
  };
}
export type AudioRepo = ReturnType<typeof audioRepo>;
