import { Type, type Static } from 'typebox';
import { Language } from './common.ts';

/* Statistics for authors and the author leaderboard (the statistics issue). */

/** Days an author's statistics look back: 7, 30, 90 or all time. */
export const StatsPeriod = Type.Union([
  Type.Literal('7'),
  Type.Literal('30'),
  Type.Literal('90'),
  Type.Literal('all'),
]);
export type StatsPeriod = Static<typeof StatsPeriod>;
export const DEFAULT_STATS_PERIOD: StatsPeriod = '30';

export const StatsQuery = Type.Object(
  { period: Type.Optional(StatsPeriod) },
  { additionalProperties: false },
);

/** Reads (counted views, SPEC.md 4) on one Sri Lanka day, 'YYYY-MM-DD'. */
export const DayReads = Type.Object({ day: Type.String(), reads: Type.Integer() });
export type DayReads = Static<typeof DayReads>;

export const EpisodeStats = Type.Object({
  partNumber: Type.Integer(),
  title: Type.String(),
  /** Views of this part in the period. */
  reads: Type.Integer(),
  /** Distinct readers who ever opened this part: part 1 to part n is the drop-off. */
  readers: Type.Integer(),
  /** Comments and replies on this part in the period. */
  comments: Type.Integer(),
});
export type EpisodeStats = Static<typeof EpisodeStats>;

export const StoryStats = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  language: Language,
  membersOnly: Type.Boolean(),
  /** Views in the period. */
  reads: Type.Integer(),
  /** All reads ever, as readers see them on the story (seeded reads included). */
  readsTotal: Type.Integer(),
  /** One entry per day of the period that had reads (days without are absent). */
  readsByDay: Type.Array(DayReads),
  /** Ratings given or changed in the period. */
  ratings: Type.Integer(),
  /** The story's mean rating and count now (all time); null average when nobody rated. */
  ratingAverage: Type.Union([Type.Number(), Type.Null()]),
  ratingCount: Type.Integer(),
  /** How many current ratings sit at each value, '0.5' to '5' (all time). */
  ratingsByValue: Type.Array(Type.Object({ rating: Type.Number(), count: Type.Integer() })),
  comments: Type.Integer(),
  /** Bookmarks made in the period. */
  bookmarks: Type.Integer(),
  /** Readers with the SMS alert on now, and how many turned it on in the period. */
  alertSubscribers: Type.Integer(),
  alertsGained: Type.Integer(),
  /** Memberships that began on this story's wall in the period. */
  membersGained: Type.Integer(),
  episodes: Type.Array(EpisodeStats),
});
export type StoryStats = Static<typeof StoryStats>;

export const AuthorStats = Type.Object({
  period: StatsPeriod,
  /** First day counted ('YYYY-MM-DD', Sri Lanka), null for all time; `to` is today. */
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.String(),
  /** All the author's stories together, per day. */
  readsByDay: Type.Array(DayReads),
  /** Followers now, and new ones in the period. */
  followers: Type.Integer(),
  followersGained: Type.Integer(),
  stories: Type.Array(StoryStats),
});
export type AuthorStats = Static<typeof AuthorStats>;

/** The summary's figures for one period. */
export const SummaryFigures = Type.Object({
  reads: Type.Integer(),
  /** Distinct readers who opened any of the author's parts. */
  readers: Type.Integer(),
  ratings: Type.Integer(),
  /** Mean of the ratings given or changed in the period; null when none. */
  ratingAverage: Type.Union([Type.Number(), Type.Null()]),
  comments: Type.Integer(),
  bookmarks: Type.Integer(),
  followersGained: Type.Integer(),
  alertsGained: Type.Integer(),
  membersGained: Type.Integer(),
  episodesPublished: Type.Integer(),
});
export type SummaryFigures = Static<typeof SummaryFigures>;

export const Summary = Type.Object({
  period: StatsPeriod,
  current: SummaryFigures,
  /** The period just before, of the same length; null for all time. */
  previous: Type.Union([SummaryFigures, Type.Null()]),
  /** Percent change per figure against `previous` (null when there is nothing to compare). */
  change: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()])),
  /** Totals now, whatever the period: followers, alert subscribers, active members gained ever. */
  followers: Type.Integer(),
  alertSubscribers: Type.Integer(),
  stories: Type.Integer(),
});
export type Summary = Static<typeof Summary>;

/* The leaderboard. */

export const LeaderboardPeriod = Type.Union([
  Type.Literal('week'),
  Type.Literal('month'),
  Type.Literal('all'),
]);
export type LeaderboardPeriod = Static<typeof LeaderboardPeriod>;
export const LeaderboardBy = Type.Union([Type.Literal('reads'), Type.Literal('rating')]);
export type LeaderboardBy = Static<typeof LeaderboardBy>;
export const LeaderboardQuery = Type.Object(
  { by: Type.Optional(LeaderboardBy), period: Type.Optional(LeaderboardPeriod) },
  { additionalProperties: false },
);

export const AuthorRank = Type.Object({
  position: Type.Integer(),
  /** Position in the period before (for all time: a week ago); null when not ranked then. */
  previousPosition: Type.Union([Type.Integer(), Type.Null()]),
  /** previousPosition - position: positive moved up; null when new. */
  change: Type.Union([Type.Integer(), Type.Null()]),
  authorId: Type.Integer(),
  /** The author's user id: the web marks the authors the reader follows by it. */
  userId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  reads: Type.Integer(),
  /** Mean rating of the period's ratings of the author's stories; null when none. */
  rating: Type.Union([Type.Number(), Type.Null()]),
  ratingCount: Type.Integer(),
  stories: Type.Integer(),
});
export type AuthorRank = Static<typeof AuthorRank>;
export const AuthorRankings = Type.Object({
  by: LeaderboardBy,
  period: LeaderboardPeriod,
  authors: Type.Array(AuthorRank),
});
export type AuthorRankings = Static<typeof AuthorRankings>;
