import {
  sriLankaDay,
  type AuthorRankings,
  type LeaderboardBy,
  type LeaderboardPeriod,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { leaderboardRepo, type RankingWindows } from './repo.ts';

/** How many authors a board lists. */
export const LEADERBOARD_SIZE = 50;

const DAY_MS = 24 * 3600 * 1000;
/** Days in a period, today (Sri Lanka) included; all time compares with a week ago. */
const PERIOD_DAYS: Record<LeaderboardPeriod, number> = { week: 7, month: 30, all: 7 };

/** The instant a Sri Lanka day ('YYYY-MM-DD') begins. */
const dayStart = (day: string): Date => new Date(`${day}T00:00:00+05:30`);

/**
 * The days and instants a board counts, as of `now`: a week is today and the six days before,
 * a month today and the 29 before (Sri Lanka days, as views are counted), and the period before
 * is the same number of days just ahead of it. All time counts everything; its "before" is the
 * same rows as they stood when this week began.
 */
export function rankingWindows(period: LeaderboardPeriod, now: number): RankingWindows {
  const days = PERIOD_DAYS[period];
  const dayAgo = (n: number) => sriLankaDay(now - n * DAY_MS);
  const from = dayAgo(days - 1);
  const prevFrom = dayAgo(2 * days - 1);
  const prevTo = dayAgo(days);
  const allTime = period === 'all';
  return {
    allTime,
    viewsFrom: from,
    viewsTo: dayAgo(0),
    prevViewsFrom: prevFrom,
    prevViewsTo: prevTo,
    ratingsFrom: allTime ? null : dayStart(from),
    prevRatingsFrom: allTime ? null : dayStart(prevFrom),
    prevRatingsTo: dayStart(from),
  };
}

/** The public author leaderboard. */
export const leaderboardService = (db: Db) => {
  const repo = leaderboardRepo(db);
  return {
    /** The top authors by reads or by rating over the period, with their change against the period before. */
    rankings: async (
      q: { by?: LeaderboardBy; period?: LeaderboardPeriod },
      now = Date.now(),
    ): Promise<AuthorRankings> => {
      const by = q.by ?? 'reads';
      const period = q.period ?? 'week';
      const found = await repo.rankings(by, rankingWindows(period, now), LEADERBOARD_SIZE);
      return {
        by,
        period,
        authors: found.map((r) => {
          const previousPosition = r.previousPosition === null ? null : Number(r.previousPosition);
          const position = Number(r.position);
          return {
            position,
            previousPosition,
            change: previousPosition === null ? null : previousPosition - position,
            authorId: Number(r.authorId),
            userId: r.userId === null ? null : Number(r.userId),
            name: r.name,
            reads: Number(r.reads),
            rating: r.rating === null ? null : Number(r.rating),
            ratingCount: Number(r.ratingCount),
            stories: Number(r.stories),
          };
        }),
      };
    },
  };
};

export type LeaderboardService = ReturnType<typeof leaderboardService>;
