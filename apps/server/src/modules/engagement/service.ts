import {
  MAX_RATING,
  ResultCode,
  sriLankaDay,
  type BookmarkItem,
  type ContinueItem,
  type RateAnswer,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { isReleased } from '../stories/repo.ts';
import type { StoriesService } from '../stories/service.ts';
import { engagementRepo } from './repo.ts';

/** The job that rolls counted views up into per-day views, reads and rating scores. */
export const ROLLUP_JOB = 'engagement.rollup';

/**
 * The job that brings one story's mean, count and score up to date with its rating rows. A
 * rating writes only its own row; the story row (which every reader of the story holds) follows
 * within seconds, once per story per slot however many rate it meanwhile.
 */
export const RATINGS_JOB = 'engagement.ratings';
/** At most one ratings job per story per this many seconds. */
const RATINGS_SLOT_SECONDS = 5;
/** It starts after its slot has ended, so it sees every rating of the slot. */
const RATINGS_DELAY_MS = (RATINGS_SLOT_SECONDS + 1) * 1000;
/** After sending one, ratings of the story this soon after are covered by it. */
const RATINGS_COVERED_MS = 2_500;
/** Stories this process remembers sending a ratings job for (the oldest forgotten first). */
const RATINGS_REMEMBERED = 10_000;

/** At most one roll-up job per this many seconds (pg-boss singleton slot). */
const ROLLUP_SLOT_SECONDS = 60;
/** A roll-up job starts this long after it is sent: after the slot it was sent in has ended. */
const ROLLUP_DELAY_MS = (ROLLUP_SLOT_SECONDS + 1) * 1000;
/** After sending a job, views this soon after are covered by it: no need to send again. */
const ROLLUP_COVERED_MS = 30_000;

const BOOKMARKS_LISTED = 200;
const CONTINUE_LISTED = 12;
/** A reader this far down the last published part has finished what is out. */
const FINISHED_POSITION = 0.9;
const DAY_MS = 24 * 3600 * 1000;

const NO_STORY = 'We could not find that story. It may have been removed.';
const RATING_RULE = "'rating' must be a number from 0 to 5 in half steps, such as '4' or '4.5'.";

/**
 * A rating as sent (SPEC.md 3: a string): 0 to 5 in half steps. Claps send their count (1 to 5)
 * the same way; 0 takes the reader's rating back. Anything else is a 400 naming the rule it
 * breaks.
 */
export const parseRating = (raw: string): number => {
  const text = raw.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw invalid(RATING_RULE);
  const rating = Number(text);
  if (rating > MAX_RATING)
    throw invalid("'rating' must be 5 or less: ratings and claps stop at 5.");
  if (!Number.isInteger(rating * 2))
    throw invalid("'rating' must be in half steps, such as '4' or '4.5'.");
  return rating;
};

export interface EngagementDeps {
  db: Db;
  queue: JobQueue;
  /** A fresh token for the viewer's session (the rating answer carries one: SPEC.md 3). */
  reissueToken(viewer: Viewer): Promise<string>;
  /** Drops cached public answers and pages after a change readers can see. */
  invalidate(): void;
  /** A story's row (the stories service keeps them: a rating reads no story from the database). */
  story: StoriesService['story'];
  /** Whether a reader is a member of a billing app (the stories service keeps their rows). */
  subscribed: StoriesService['subscribed'];
}

const subscriptionRequired = (what: string) =>
  new AppError(
    403,
    ResultCode.subscriptionRequired,
    `This story is for members. Subscribe to ${what}.`,
  );

/** Ratings and claps, bookmarks, reading progress and views. */
export function engagementService(deps: EngagementDeps) {
  const { db, queue } = deps;
  const repo = engagementRepo(db);

  // Until then, a roll-up job this process sent will still see new views: none is sent.
  let rollupCoveredUntil = 0;

  /**
   * Asks for a roll-up soon. pg-boss keeps one job per key and 60-second slot (its unique index
   * on singleton_on), and the job starts after the slot ends, so every view of that slot is
   * seen by it. Best effort: a lost request is made good by the next view and by the full
   * roll-up at start-up.
   */
  const scheduleRollup = async () => {
    const now = Date.now();
    if (now < rollupCoveredUntil) return;
    try {
      const id = await queue.send(
        ROLLUP_JOB,
        {},
        {
          singletonKey: ROLLUP_JOB,
          singletonSeconds: ROLLUP_SLOT_SECONDS,
          startAfter: new Date(now + ROLLUP_DELAY_MS),
          retryLimit: 2,
        },
      );
      if (id) rollupCoveredUntil = now + ROLLUP_COVERED_MS;
    } catch (err) {
      console.error(`Could not schedule the views roll-up: ${(err as Error).message}`);
    }
  };

  // Per story: until then, a ratings job this process sent will still see new ratings.
  const ratingsCoveredUntil = new Map<number, number>();

  /**
   * Asks for the story's ratings job, as scheduleRollup does for the roll-up: one job per story
   * and slot (pg-boss's singleton key), starting after the slot. Best effort: the roll-up
   * recomputes every story's mean and count anyway.
   */
  const scheduleRatings = async (storyId: number) => {
    const now = Date.now();
    if (now < (ratingsCoveredUntil.get(storyId) ?? 0)) return;
    try {
      const id = await queue.send(
        RATINGS_JOB,
        { storyId },
        {
          singletonKey: `${RATINGS_JOB}:${storyId}`,
          singletonSeconds: RATINGS_SLOT_SECONDS,
          startAfter: new Date(now + RATINGS_DELAY_MS),
          retryLimit: 2,
        },
      );
      // None sent: this slot has its job (another process's), which starts a second after the
      // slot ends and so sees every rating until then. Asking again before then adds nothing.
      const slotMs = RATINGS_SLOT_SECONDS * 1000;
      const until = id ? now + RATINGS_COVERED_MS : Math.ceil(now / slotMs) * slotMs;
      ratingsCoveredUntil.delete(storyId);
      if (ratingsCoveredUntil.size >= RATINGS_REMEMBERED)
        ratingsCoveredUntil.delete(ratingsCoveredUntil.keys().next().value!);
      ratingsCoveredUntil.set(storyId, until);
    } catch (err) {
      console.error(`Could not schedule a story's ratings: ${(err as Error).message}`);
    }
  };

  return {
    scheduleRollup,
    scheduleRatings,

    /**
     * Rates a story (one rating per reader; a new one replaces it, 0 clears it) and answers its
     * new mean. The reader's own rating shows at once (its row's notice drops their state); the
     * story's mean and count, which every reader of it sees, follow in the ratings job.
     */
    async rate(viewer: Viewer, storyId: number, raw: string): Promise<RateAnswer> {
      const rating = parseRating(raw);
      const story = await deps.story(storyId);
      if (!story || !isReleased(story)) throw notFound(NO_STORY);
      if (story.membersOnly && !(await deps.subscribed(viewer.userId, story.appId)))
        throw subscriptionRequired('rate it');
      const result = await repo.rate(viewer.userId, storyId, rating);
      await scheduleRatings(storyId);
      return {
        accesstoken: await deps.reissueToken(viewer),
        rating: result.rating,
        ratingCount: result.ratingCount,
        userRating: rating,
      };
    },

    /** Adds (state 1) or removes (state 0) a bookmark; both are idempotent. */
    async bookmark(viewer: Viewer, storyId: number, state: 0 | 1) {
      if (state === 0) {
        await repo.removeBookmark(viewer.userId, storyId);
        return { bookmarked: false };
      }
      if (!(await repo.addBookmark(viewer.userId, storyId))) throw notFound(NO_STORY);
      return { bookmarked: true };
    },

    /** The reader's bookmarks, newest first, with where they are in each. */
    bookmarks: async (viewer: Viewer): Promise<{ list: BookmarkItem[] }> => ({
      list: await repo.bookmarks(viewer.userId, BOOKMARKS_LISTED),
    }),

    /** Saves where the reader is in a story (one statement). */
    async saveProgress(
      viewer: Viewer,
      body: { storyId: number; partNumber: number; position: number },
    ) {
      const saved = await repo.saveProgress(
        viewer.userId,
        body.storyId,
        body.partNumber,
        body.position,
      );
      if (!saved) throw notFound(`We could not find part ${body.partNumber} of that story.`);
      return { saved: true };
    },

    /** Continue reading: open stories, most recent first, those read to the end left out. */
    continueReading: async (viewer: Viewer): Promise<{ list: ContinueItem[] }> => ({
      list: await repo.continueReading(viewer.userId, CONTINUE_LISTED, FINISHED_POSITION),
    }),

    /**
     * Counts a view of a part at most once per reader, part and Sri Lanka day: one insert that
     * does nothing on a repeat. The story row is left alone; the roll-up job updates reads.
     */
    async view(viewer: Viewer, storyId: number, partNumber: number, medium: string) {
      const part = await repo.publicPart(storyId, partNumber, viewer.userId);
      if (!part) throw notFound(`We could not find part ${partNumber} of that story.`);
      if (part.locked && !part.subscribed) throw subscriptionRequired('read it');
      const counted = await repo.recordView(
        storyId,
        viewer.userId,
        partNumber,
        sriLankaDay(new Date()),
        medium,
      );
      if (counted) await scheduleRollup();
      return { counted };
    },

    /** The ratings job: the story's mean, count and score from its rating rows. */
    refreshRating: (storyId: number) => repo.refreshRating(storyId),

    /**
     * Rolls counted views up into story_view_days and stories.reads, catches up any story whose
     * mean or count missed its ratings job, and brings rating scores up to date with the site
     * mean. Recomputes rather than adds, so running it twice is safe. Normally only yesterday
     * and today (Sri Lanka) can have new views; `full` redoes every day.
     */
    async rollup(opts: { full?: boolean } = {}) {
      const since = opts.full ? null : sriLankaDay(Date.now() - DAY_MS);
      const changed =
        (await repo.rollupViews(since)) +
        (await repo.refreshAllRatings()) +
        (await repo.refreshScores());
      if (changed) deps.invalidate();
      return { changed };
    },

    /** After the seed writes rating rows directly: every story's mean, count and score. */
    async recomputeRatings() {
      await repo.recomputeAllRatings();
      await repo.refreshScores();
    },
  };
}
export type EngagementService = ReturnType<typeof engagementService>;
