import { MONTHS } from '../../i18n/dates.ts';
import {
  DEFAULT_STATS_PERIOD,
  type DayReads,
  type StatsPeriod,
  type StoryStats,
  type Summary,
  type SummaryFigures,
  type UiLang,
} from '@kathamala/domain';

/*
 * Pure shaping of the statistics answers for the page: the server has already counted
 * everything (in SQL); here days without reads become zeros for the charts, and a few
 * per-story aggregates are put side by side.
 */

/** The period choices in the order the page offers them. */
export const PERIODS: readonly StatsPeriod[] = ['7', '30', '90', 'all'];

/** `?period=` as typed in the address bar: anything unknown is the default (30 days). */
export const parsePeriod = (raw: string | null): StatsPeriod =>
  PERIODS.find((p) => p === raw) ?? DEFAULT_STATS_PERIOD;

/** `?story=` as a positive id, else null (all stories). */
export const parseStoryId = (raw: string | null): number | null => {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
};

const DAY_MS = 24 * 3600 * 1000;
const dayToMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const msToDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The day `n` days after `day` ('YYYY-MM-DD'; calendar days, no time zone involved). */
export const addDays = (day: string, n: number): string => msToDay(dayToMs(day) + n * DAY_MS);

/** A chart of more days than this would be a smear: all time then goes week by week. */
export const MAX_DAILY_POINTS = 120;

export interface SeriesPoint {
  /** The first day the point covers ('YYYY-MM-DD'). */
  day: string;
  reads: number;
}

/**
 * Every day from `from` to `to` with its reads, zeros included (the answer lists only days
 * with reads). For all time (`from` null) the series starts on the first day with reads; when
 * that is more than MAX_DAILY_POINTS days, each point is a week (its first day named).
 */
export function readsSeries(
  from: string | null,
  to: string,
  byDay: readonly DayReads[],
): { points: SeriesPoint[]; weekly: boolean } {
  const reads = new Map(byDay.map((d) => [d.day, d.reads]));
  const first = from ?? byDay.reduce((min, d) => (d.day < min ? d.day : min), to);
  const days = Math.max(0, Math.round((dayToMs(to) - dayToMs(first)) / DAY_MS)) + 1;
  const weekly = from === null && days > MAX_DAILY_POINTS;
  const step = weekly ? 7 : 1;
  const points: SeriesPoint[] = [];
  for (let i = 0; i < days; i += step) {
    const day = addDays(first, i);
    let sum = 0;
    for (let j = i; j < Math.min(i + step, days); j++) sum += reads.get(addDays(first, j)) ?? 0;
    points.push({ day, reads: sum });
  }
  return { points, weekly };
}

const SHORT_MONTHS_EN = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/**
 * A calendar day as a chart label: '12 Nov' / 'නොවැම්බර් 12', with the year when asked.
 * Written out rather than with Intl, whose Sinhala data differs between browsers.
 */
export function formatDay(day: string, lang: UiLang, withYear = false): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  if (!y || !m || !d) return day;
  const text = lang === 'si' ? `${MONTHS.si[m - 1]} ${d}` : `${d} ${SHORT_MONTHS_EN[m - 1]}`;
  return withYear ? (lang === 'si' ? `${y} ${text}` : `${text} ${y}`) : text;
}

/** The day with the most reads (the earliest of equals), or null when there were none. */
export const peakDay = (points: readonly SeriesPoint[]): SeriesPoint | null =>
  points.reduce<SeriesPoint | null>((best, p) => (p.reads > (best?.reads ?? 0) ? p : best), null);

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** The rating steps a reader can give, half to five stars (claps land on the whole ones). */
const RATING_STEPS = [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5];

/**
 * Ratings by value for one story or all of them, every step present (zero when nobody gave
 * it), with their mean; the mean is null when nobody rated.
 */
export function ratingDistribution(stories: readonly StoryStats[]): {
  values: { rating: number; count: number }[];
  count: number;
  average: number | null;
} {
  const counts = new Map<number, number>(RATING_STEPS.map((r) => [r, 0]));
  for (const story of stories)
    for (const v of story.ratingsByValue)
      counts.set(v.rating, (counts.get(v.rating) ?? 0) + v.count);
  const values = [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([rating, count]) => ({ rating, count }));
  const count = sum(values.map((v) => v.count));
  const total = sum(values.map((v) => v.rating * v.count));
  return { values, count, average: count > 0 ? total / count : null };
}

/** One of the summary's figures. */
export type FigureKey = Exclude<keyof SummaryFigures, 'ratingAverage' | 'episodesPublished'>;

/** The figures shown first, in this order. */
export const FIGURES: readonly FigureKey[] = [
  'reads',
  'readers',
  'ratings',
  'comments',
  'bookmarks',
  'followersGained',
  'alertsGained',
  'membersGained',
];

/**
 * Percent change of a figure against the period before, rounded: the server's when it gave
 * one, else worked out from the two figures. Null when there is nothing to compare (all time,
 * or nothing in the period before).
 */
export function figureChange(summary: Summary, key: FigureKey): number | null {
  if (!summary.previous) return null;
  const given = summary.change[key];
  if (typeof given === 'number' && Number.isFinite(given)) return Math.round(given);
  const before = summary.previous[key];
  if (before === 0) return null;
  return Math.round(((summary.current[key] - before) / before) * 100);
}

/** Stories by reads in the period, most first (equal reads: all-time reads, then title). */
export const topStories = (stories: readonly StoryStats[]): StoryStats[] =>
  [...stories].sort(
    (a, b) => b.reads - a.reads || b.readsTotal - a.readsTotal || a.title.localeCompare(b.title),
  );

/** A long title cut for a chart axis, with an ellipsis; whole letters (and joiners) kept. */
export function shortTitle(title: string, max = 22): string {
  const chars = [...title];
  if (chars.length <= max) return title;
  let cut = max - 1;
  // Never end on a joiner or a virama: the conjunct would show broken.
  while (cut > 1 && (chars[cut - 1] === '\u200d' || chars[cut - 1] === '\u0dca')) cut--;
  return `${chars.slice(0, cut).join('').trimEnd()}…`;
}

/** Readers who reached a part as a percentage of those who opened part 1 (rounded). */
export const reachPercent = (readers: number, firstPartReaders: number): number | null =>
  firstPartReaders > 0 ? Math.round((readers / firstPartReaders) * 100) : null;
