import {
  DEFAULT_STATS_PERIOD,
  sriLankaDay,
  type AuthorStats,
  type Language,
  type StatsPeriod,
  type Summary,
  type SummaryFigures,
} from '@kathamala/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';
import { statisticsRepo, type Window } from './repo.ts';

const DAY_MS = 24 * 3600 * 1000;
/** Advisory lock key of the statistics roll-up (727001 and up are the app's other locks). */
const ROLLUP_LOCK = 727_300;
const NOT_AUTHOR = 'Statistics are for authors. Register as an author and publish a story first.';

/** The Sri Lanka day `n` days after `day` ('YYYY-MM-DD'; n may be negative). */
export const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The moment a Sri Lanka day begins, as an ISO timestamp (timestamped rows are compared to it). */
export const dayStart = (day: string): string => new Date(`${day}T00:00:00+05:30`).toISOString();

/**
 * The days a period covers, today (Sri Lanka) included: '7' is today and the 6 days before.
 * The previous period is the same number of days just before; 'all' has none.
 */
export const periodDays = (period: StatsPeriod, now: number = Date.now()) => {
  const today = sriLankaDay(now);
  if (period === 'all') return { today, from: null, previousFrom: null };
  const n = Number(period);
  const from = addDays(today, -(n - 1));
  return { today, from, previousFrom: addDays(from, -n) };
};

/** Percent change from `before` to `now`, one decimal; null when there is nothing to compare. */
export const percentChange = (now: number | null, before: number | null): number | null => {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
};

export interface StatisticsDeps {
  db: Db;
}

/** Authors' statistics of their own stories, and the roll-up that keeps them cheap to answer. */
export function statisticsService(deps: StatisticsDeps) {
  const repo = statisticsRepo(deps.db);

  /** The viewer's own author record: statistics never take an author id from the caller. */
  const ownAuthor = async (viewer: Viewer) => {
    const author = await repo.authorOfUser(viewer.userId);
    if (!author) throw forbidden(NOT_AUTHOR);
    return { authorId: Number(author.authorId), userId: viewer.userId };
  };

  return {
    /** Per story and per episode figures of the viewer's own stories for the period. */
    async authorStats(
      viewer: Viewer,
      period: StatsPeriod = DEFAULT_STATS_PERIOD,
    ): Promise<AuthorStats> {
      const a = await ownAuthor(viewer);
      const { today, from } = periodDays(period);
      const w: Window = { fromDay: from, fromAt: from === null ? null : dayStart(from) };
      const [stories, byValue, storyDays, authorDays, episodes, followers] = await Promise.all([
        repo.stories(a.authorId, w),
        repo.ratingsByValue(a.authorId),
        repo.storyDays(a.authorId, w),
        repo.authorDays(a.authorId, w),
        repo.episodes(a.authorId, w),
        repo.followers(a.userId, w),
      ]);
      // Group the already-aggregated rows under their story (no counting happens here).
      const under = <T extends { storyId: number }>(list: T[]) => {
        const map = new Map<number, T[]>();
        for (const row of list) {
          const at = map.get(row.storyId);
          if (at) at.push(row);
          else map.set(row.storyId, [row]);
        }
        return map;
      };
      const values = under(byValue);
      const days = under(storyDays);
      const parts = under(episodes);
      return {
        period,
        from,
        to: today,
        readsByDay: authorDays,
        followers: followers.now,
        followersGained: followers.gained,
        stories: stories.map((s) => ({
          storyId: s.storyId,
          title: s.title,
          language: s.language as Language,
          membersOnly: s.membersOnly,
          reads: s.reads,
          readsTotal: s.readsTotal,
          readsByDay: (days.get(s.storyId) ?? []).map(({ day, reads }) => ({ day, reads })),
          ratings: s.ratings,
          ratingAverage: s.ratingCount > 0 ? s.rating : null,
          ratingCount: s.ratingCount,
          ratingsByValue: (values.get(s.storyId) ?? []).map(({ rating, count }) => ({
            rating,
            count,
          })),
          comments: s.comments,
          bookmarks: s.bookmarks,
          alertSubscribers: s.alertSubscribers,
          alertsGained: s.alertsGained,
          membersGained: s.membersGained,
          episodes: (parts.get(s.storyId) ?? []).map(({ storyId: _, ...e }) => e),
        })),
      };
    },

    /** The viewer's totals for the period against the period just before, with the change. */
    async summary(viewer: Viewer, period: StatsPeriod = DEFAULT_STATS_PERIOD): Promise<Summary> {
      const a = await ownAuthor(viewer);
      const { from, previousFrom } = periodDays(period);
      const at = (day: string | null) => (day === null ? null : dayStart(day));
      const [current, previous, totals] = await Promise.all([
        repo.figures(a, from, null, at(from), null),
        previousFrom === null
          ? Promise.resolve(null)
          : repo.figures(a, previousFrom, from, at(previousFrom), at(from)),
        repo.totals(a),
      ]);
      const change: Record<string, number | null> = {};
      for (const key of Object.keys(current) as (keyof SummaryFigures)[])
        change[key] = previous ? percentChange(current[key], previous[key]) : null;
      return { period, current, previous, change, ...totals };
    },

    /**
     * Rolls views up per part per day, readers per part and each reader's days. Incremental runs look at yesterday
     * and today (Sri Lanka), a full run at every day. Idempotent: it recomputes from the rows.
     */
    async rollup(opts: { full?: boolean } = {}) {
      const since = opts.full ? null : sriLankaDay(Date.now() - DAY_MS);
      const changed = await deps.db.transaction(async (tx) => {
        // One roll-up at a time (the start-up run and a later one, or two servers): upserts of
        // the same rows in two orders could deadlock.
        await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK})`);
        const r = statisticsRepo(tx as unknown as Db);
        return (
          (await r.rollupPartDays(since)) +
          (await r.rollupReach(since)) +
          (await r.rollupReaders(since))
        );
      });
      return { changed };
    },
  };
}
export type StatisticsService = ReturnType<typeof statisticsService>;
