import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  ResultCode,
  type AudioBook,
  type AudioProgressAnswer,
  type AudioTrackInput,
  type AuthorAudioTrack,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import type { CacheDeps } from '../../cache/changes.ts';
import { Memo } from '../../cache/memo.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { publishingRepo } from '../publishing/repo.ts';
import { mayChangeStory, requireAuthor } from '../publishing/policy.ts';
import type { Capabilities } from './capability.ts';
import {
  judgeAudio,
  NotAudio,
  renderRenditions,
  RENDITION_FILES,
  RENDITION_TYPES,
  type FfmpegTools,
} from './ffmpeg.ts';
import { audioRepo, type ReadyTrack, type TrackRow } from './repo.ts';

/** The job that makes a track's renditions. */
export const AUDIO_JOB = 'audio-process';
/** A three-hour upload takes minutes to render on a small machine: supervision waits an hour. */
const JOB_EXPIRE_SECONDS = 60 * 60;
/** Seconds short of the end (at most 5% of it) at which a track counts as finished: players stop a little early. */
const FINISHED_WITHIN = 3;

const STORIES_KEPT = 5_000;
const LISTENERS_KEPT = 50_000;
const NO_BOOKS: readonly AudioBook[] = Object.freeze([]);
const NO_POSITIONS: ReadonlyMap<number, number> = new Map();

/** Where a track's renditions are kept. */
export const renditionKey = (prefix: string, quality: keyof typeof RENDITION_FILES) =>
  `audio/${prefix}/${RENDITION_FILES[quality]}`;

export const noFfmpeg = () =>
  new AppError(
    503,
    ResultCode.internal,
    'Audio uploads are not possible on this server right now: it has no audio converter (ffmpeg). Listening still works. Please try again later.',
  );

/** Hooks a test uses to stop a run midway, as a crash would. */
export interface ProcessHooks {
  afterFirstRendition?: () => Promise<void> | void;
}

export interface AudioDeps {
  db: Db;
  queue: JobQueue;
  storage: ObjectStorage;
  cache?: CacheDeps;
  ffmpeg: FfmpegTools | null;
  capabilities: Capabilities;
}

/** What the stories service asks for a details answer's `audioBooks`. */
export interface AudioBooksSource {
  /** From memory alone: undefined when something has to be read first. */
  kept(
    storyId: number,
    viewer: Viewer | null,
    subscribed: boolean,
  ): readonly AudioBook[] | undefined;
  load(storyId: number, viewer: Viewer | null, subscribed: boolean): Promise<readonly AudioBook[]>;
}

/**
 * Audio episodes: an author's tracks and their processing job, the tracks readers may hear (kept
 * in memory like the story data and dropped by the same change feed), listening positions.
 */
export function audioService(deps: AudioDeps) {
  const { db, storage, capabilities } = deps;
  const repo = audioRepo(db);
  const live = deps.cache ? () => deps.cache!.live() : () => false;
  const ready = new Memo<number, ReadyTrack[]>(STORIES_KEPT, live);
  const byPrefix = new Memo<string, ReadyTrack>(STORIES_KEPT, live);
  // A listener's positions in every track, by track id: one read per listener, not per story
  // (most readers have none, and a story page would otherwise ask for each story they open).
  const positions = new Memo<number, ReadonlyMap<number, number>>(LISTENERS_KEPT, live);
  // What a listener's audioBooks were made from, so an unchanged list is the same object.
  const made = new Map<string, { from: unknown[]; books: readonly AudioBook[] }>();
  deps.cache?.feed.on((change) => {
    switch (change.kind) {
      case 'story':
        ready.delete(change.id);
        byPrefix.deleteWhere((_k, t) => t.storyId === change.id);
        break;
      case 'listener':
        positions.delete(change.userId);
        break;
      case 'joined':
        positions.offer(change.userId, NO_POSITIONS);
        break;
      case 'stories':
      case 'all':
        ready.clear();
        byPrefix.clear();
        positions.clear();
        made.clear();
        break;
    }
  });

  const readyOf = (storyId: number) =>
    ready.load(storyId, () => repo.readyTracks(storyId)) as Promise<ReadyTrack[]>;
  const positionsOf = (userId: number) =>
    positions.load(userId, () => repo.positions(userId)) as Promise<ReadonlyMap<number, number>>;

  /** The list for this viewer, made anew only when a track, a position, access or the hour changed. */
  const booksOf = (
    storyId: number,
    tracks: readonly ReadyTrack[],
    mine: ReadonlyMap<number, number>,
    viewer: Viewer | null,
    subscribed: boolean,
  ): readonly AudioBook[] => {
    if (tracks.length === 0) return NO_BOOKS;
    const member = viewer !== null && subscribed;
    const hour = member ? capabilities.hourOf() : 0;
    const key = `${viewer?.userId ?? 0}:${storyId}`;
    const from = [tracks, mine, member, hour];
    const was = made.get(key);
    if (was && was.from.every((x, i) => x === from[i])) return was.books;
    const books = Object.freeze(
      tracks.map((t): AudioBook => ({
        trackId: t.trackId,
        // A member's prefix of a members-only track is a capability for them alone.
        prefix: !t.membersOnly
          ? t.prefix
          : member
            ? capabilities.sign(t.prefix, viewer.userId)
            : null,
        title: t.title,
        partNumber: t.partNumber,
        durationSeconds: t.durationSeconds,
        membersOnly: t.membersOnly,
        sizes: { standard: t.standardBytes, saver: t.saverBytes },
        positionSeconds: mine.get(t.trackId) ?? 0,
      })),
    );
    if (live()) {
      if (made.size >= LISTENERS_KEPT) made.delete(made.keys().next().value!);
      made.set(key, { from, books });
    }
    return books;
  };

  const books: AudioBooksSource = {
    kept(storyId, viewer, subscribed) {
      const tracks = ready.get(storyId);
      if (!tracks) return undefined;
      if (tracks.length === 0) return NO_BOOKS;
      const mine = viewer ? positions.get(viewer.userId) : NO_POSITIONS;
      return mine && booksOf(storyId, tracks, mine, viewer, subscribed);
    },
    async load(storyId, viewer, subscribed) {
      const tracks = await readyOf(storyId);
      if (tracks.length === 0) return NO_BOOKS;
      const mine = viewer ? await positionsOf(viewer.userId) : NO_POSITIONS;
      return booksOf(storyId, tracks, mine, viewer, subscribed);
    },
  };

  /** The story, when the viewer is its author: else 403 (a reader, another author) or 404. */
  const ownStory = async (viewer: Viewer, storyId: number) => {
    const pub = publishingRepo(db);
    const author = await requireAuthor(pub, viewer);
    const story = await pub.story(storyId);
    if (!story) throw notFound('We could not find that story.');
    mayChangeStory(author.id, story);
    return story;
  };
  const ownTrack = async (viewer: Viewer, trackId: number) => {
    const track = await repo.track(trackId);
    if (!track) throw notFound('We could not find that track. It may have been deleted.');
    await ownStory(viewer, track.storyId);
    return track;
  };

  const authorView = (t: TrackRow): AuthorAudioTrack => ({
    trackId: t.trackId,
    title: t.title,
    partNumber: t.partNumber,
    membersOnly: t.membersOnly || t.storyMembersOnly,
    position: t.position,
    status: t.status,
    ...(t.status === 'failed' && t.reason ? { reason: t.reason } : {}),
    durationSeconds: t.status === 'ready' ? t.durationSeconds : null,
    sizes:
      t.status === 'ready' ? { standard: t.standardBytes ?? 0, saver: t.saverBytes ?? 0 } : null,
  });

  const removeRenditions = async (prefix: string) => {
    for (const quality of ['standard', 'saver'] as const)
      await storage.delete(renditionKey(prefix, quality));
  };

  return {
    books,
    ffmpeg: deps.ffmpeg,

    /** 403/404 before a byte of an upload is read. */
    assertOwnStory: ownStory,

    /**
     * A new track from an upload spooled to `file`: judged by its bytes, stored, and queued for
     * processing in the transaction that adds it.
     */
    async upload(
      viewer: Viewer,
      storyId: number,
      fields: { title: string; partNumber: number | null; membersOnly: boolean },
      file: string,
    ) {
      if (!deps.ffmpeg) throw noFfmpeg();
      await ownStory(viewer, storyId);
      const title = fields.title.trim();
      if (!title) throw invalid('Give the track a title.', 'title');
      if (title.length > 200)
        throw invalid('A track title may be at most 200 characters.', 'title');
      try {
        await judgeAudio(deps.ffmpeg, file);
      } catch (e) {
        if (e instanceof NotAudio) throw invalid(e.message, 'audio');
        throw e;
      }
      const sourceKey = `audio/uploads/${storyId}-${randomBytes(8).toString('hex')}`;
      await storage.putFile(sourceKey, file, 'application/octet-stream');
      try {
        const trackId = await db.transaction(async (tx) => {
          const id = await audioRepo(tx as unknown as Db).insert({
            storyId,
            sourceKey,
            ...fields,
            title,
          });
          await deps.queue.send(
            AUDIO_JOB,
            { trackId: id },
            { retryLimit: 3, retryDelay: 30, expireInSeconds: JOB_EXPIRE_SECONDS },
            tx as unknown as Db,
          );
          return id;
        });
        return { trackId, status: 'processing' as const };
      } catch (e) {
        await storage.delete(sourceKey);
        throw e;
      }
    },

    /** The story's tracks for its author, in order, with their state. */
    async authorTracks(viewer: Viewer, storyId: number) {
      await ownStory(viewer, storyId);
      return { tracks: (await repo.tracks(storyId)).map(authorView) };
    },

    /** Changes a track's title, part, order or members-only flag. */
    async updateTrack(viewer: Viewer, input: AudioTrackInput) {
      const track = await ownTrack(viewer, input.trackId);
      const title = (input.title ?? track.title).trim();
      if (!title) throw invalid('Give the track a title.', 'title');
      if (title.length > 200)
        throw invalid('A track title may be at most 200 characters.', 'title');
      await db.transaction(async (tx) => {
        const r = audioRepo(tx as unknown as Db);
        await r.update(track.trackId, {
          title,
          partNumber: input.partNumber === undefined ? track.partNumber : input.partNumber,
          membersOnly: input.membersOnly ?? track.membersOnly,
        });
        if (input.position !== undefined) {
          const ids = (await r.tracks(track.storyId))
            .map((t) => t.trackId)
            .filter((id) => id !== track.trackId);
          ids.splice(Math.min(input.position, ids.length + 1) - 1, 0, track.trackId);
          await r.reorder(ids);
        }
      });
      return { tracks: (await repo.tracks(track.storyId)).map(authorView) };
    },

    /** Removes a track, its renditions and its listeners' positions. */
    async deleteTrack(viewer: Viewer, trackId: number) {
      const track = await ownTrack(viewer, trackId);
      await db.transaction(async (tx) => {
        const r = audioRepo(tx as unknown as Db);
        await r.delete(trackId);
        await r.reorder((await r.tracks(track.storyId)).map((t) => t.trackId));
      });
      // After the commit: a listener mid-stream loses the track only once nobody is sent its prefix.
      if (track.prefix) await removeRenditions(track.prefix);
      if (track.sourceKey) await storage.delete(track.sourceKey);
    },

    /**
     * The job: both renditions under a new prefix, then the track flips to ready in one
     * statement. A run that dies midway leaves the track processing and its prefix unused; the
     * retry starts over under another. A track already done or gone is left alone.
     */
    async process(trackId: number, hooks: ProcessHooks = {}) {
      const track = await repo.track(trackId);
      if (!track || track.status !== 'processing' || !track.sourceKey) return;
      if (!deps.ffmpeg)
        throw new Error('ffmpeg is not installed: the track waits for a server that has it');
      const dir = await mkdtemp(path.join(os.tmpdir(), 'kathamala-audio-'));
      const prefix = randomBytes(12).toString('hex');
      let stored = false;
      try {
        const source = path.join(dir, 'source');
        const body = await storage.read(track.sourceKey);
        if (!body) {
          await repo.markFailed(
            trackId,
            'The uploaded file was lost before it was processed. Upload it again.',
          );
          return;
        }
        await pipeline(body, createWriteStream(source));
        let made;
        try {
          made = await renderRenditions(deps.ffmpeg, source, dir);
        } catch (e) {
          await repo.markFailed(
            trackId,
            `We could not convert this recording (${(e as Error).message}). Export it again and upload it.`,
          );
          return;
        }
        stored = true;
        await storage.putFile(
          renditionKey(prefix, 'standard'),
          made.standard.file,
          RENDITION_TYPES.standard,
        );
        await hooks.afterFirstRendition?.();
        await storage.putFile(
          renditionKey(prefix, 'saver'),
          made.saver.file,
          RENDITION_TYPES.saver,
        );
        const flipped = await repo.markReady(trackId, {
          prefix,
          durationSeconds: Math.round(made.standard.durationSeconds * 10) / 10,
          standardBytes: made.standard.bytes,
          saverBytes: made.saver.bytes,
        });
        if (!flipped) await removeRenditions(prefix);
        else await storage.delete(track.sourceKey);
      } catch (e) {
        // The half-written prefix is never named by the track: drop what we can of it.
        if (stored) await removeRenditions(prefix).catch(() => {});
        throw e;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    /** The ready track under this prefix, if any. */
    trackByPrefix: (prefix: string) => byPrefix.load(prefix, () => repo.readyByPrefix(prefix)),

    /**
     * Keeps where the listener is. Finishing a track that narrates a part moves their Continue
     * reading to the next part (if it is out).
     */
    async saveProgress(
      viewer: Viewer,
      trackId: number,
      seconds: number,
    ): Promise<AudioProgressAnswer> {
      const track = await repo.track(trackId);
      if (!track || track.status !== 'ready')
        throw notFound('We could not find that track. It may have been deleted.');
      const duration = track.durationSeconds ?? 0;
      const positionSeconds = Math.min(seconds, duration);
      await repo.savePosition(viewer.userId, trackId, positionSeconds);
      if (
        track.partNumber !== null &&
        positionSeconds >= duration - Math.min(FINISHED_WITHIN, duration * 0.05)
      ) {
        const next = track.partNumber + 1;
        if (await repo.continueAt(viewer.userId, track.storyId, next))
          return { positionSeconds, continuePart: next };
      }
      return { positionSeconds };
    },
  };
}
export type AudioService = ReturnType<typeof audioService>;
