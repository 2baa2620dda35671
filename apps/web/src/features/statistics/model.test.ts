import { describe, expect, it } from 'vitest';
import type { StoryStats, Summary, SummaryFigures } from '@kathamala/domain';
import {
  addDays,
  figureChange,
  formatDay,
  parsePeriod,
  parseStoryId,
  peakDay,
  ratingDistribution,
  reachPercent,
  readsSeries,
  shortTitle,
  topStories,
} from './model.ts';

describe('period and story in the address', () => {
  it.each([
    ['7', '7'],
    ['90', '90'],
    ['all', 'all'],
    [null, '30'],
    ['365', '30'],
    ['', '30'],
  ] as const)('period %j -> %s', (raw, period) => expect(parsePeriod(raw)).toBe(period));

  it.each([
    ['12', 12],
    ['0', null],
    ['-3', null],
    ['abc', null],
    [null, null],
  ] as const)('story %j -> %j', (raw, id) => expect(parseStoryId(raw)).toBe(id));
});

describe('readsSeries', () => {
  it('fills the days without reads with zeros, from the first day to today', () => {
    const { points, weekly } = readsSeries('2026-02-26', '2026-03-02', [
      { day: '2026-02-27', reads: 4 },
      { day: '2026-03-02', reads: 1 },
    ]);
    expect(weekly).toBe(false);
    expect(points).toEqual([
      { day: '2026-02-26', reads: 0 },
      { day: '2026-02-27', reads: 4 },
      { day: '2026-02-28', reads: 0 },
      { day: '2026-03-01', reads: 0 },
      { day: '2026-03-02', reads: 1 },
    ]);
  });

  it('starts all time at the first day with reads, and goes by week over long spans', () => {
    expect(readsSeries(null, '2026-01-03', [{ day: '2026-01-02', reads: 2 }]).points).toEqual([
      { day: '2026-01-02', reads: 2 },
      { day: '2026-01-03', reads: 0 },
    ]);
    expect(readsSeries(null, '2026-01-03', []).points).toEqual([{ day: '2026-01-03', reads: 0 }]);
    const long = readsSeries(null, '2026-12-31', [
      { day: '2026-01-01', reads: 1 },
      { day: '2026-01-07', reads: 2 },
      { day: '2026-01-08', reads: 5 },
    ]);
    expect(long.weekly).toBe(true);
    expect(long.points[0]).toEqual({ day: '2026-01-01', reads: 3 });
    expect(long.points[1]).toEqual({ day: '2026-01-08', reads: 5 });
    expect(long.points).toHaveLength(53);
  });
});

describe('days', () => {
  it('adds calendar days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
  it.each([
    ['2026-11-05', 'en', false, '5 Nov'],
    ['2026-11-05', 'si', false, 'නොවැම්බර් 5'],
    ['2026-01-20', 'en', true, '20 Jan 2026'],
  ] as const)('%s in %s', (day, lang, year, text) => expect(formatDay(day, lang, year)).toBe(text));
  it('finds the busiest day, none when nobody read', () => {
    expect(
      peakDay([
        { day: 'a', reads: 1 },
        { day: 'b', reads: 3 },
        { day: 'c', reads: 3 },
      ]),
    ).toEqual({ day: 'b', reads: 3 });
    expect(peakDay([{ day: 'a', reads: 0 }])).toBeNull();
  });
});

const story = (over: Partial<StoryStats>): StoryStats => ({
  storyId: 1,
  title: 'A',
  language: 'english',
  membersOnly: false,
  reads: 0,
  readsTotal: 0,
  readsByDay: [],
  ratings: 0,
  ratingAverage: null,
  ratingCount: 0,
  ratingsByValue: [],
  comments: 0,
  bookmarks: 0,
  alertSubscribers: 0,
  alertsGained: 0,
  membersGained: 0,
  episodes: [],
  ...over,
});

describe('ratingDistribution', () => {
  it('adds the stories together with every half step present, and their mean', () => {
    const d = ratingDistribution([
      story({ ratingsByValue: [{ rating: 5, count: 2 }] }),
      story({
        ratingsByValue: [
          { rating: 4, count: 1 },
          { rating: 5, count: 1 },
        ],
      }),
    ]);
    expect(d.values).toHaveLength(10);
    expect(d.values.find((v) => v.rating === 5)?.count).toBe(3);
    expect(d.values.find((v) => v.rating === 0.5)?.count).toBe(0);
    expect(d.count).toBe(4);
    expect(d.average).toBeCloseTo(4.75);
  });
  it('has no mean without ratings', () => {
    expect(ratingDistribution([story({})]).average).toBeNull();
  });
});

const figures = (over: Partial<SummaryFigures>): SummaryFigures => ({
  reads: 0,
  readers: 0,
  ratings: 0,
  ratingAverage: null,
  comments: 0,
  bookmarks: 0,
  followersGained: 0,
  alertsGained: 0,
  membersGained: 0,
  episodesPublished: 0,
  ...over,
});

describe('figureChange', () => {
  const summary = (over: Partial<Summary>): Summary => ({
    period: '30',
    current: figures({ reads: 150, readers: 3 }),
    previous: figures({ reads: 100, readers: 0 }),
    change: {},
    followers: 0,
    alertSubscribers: 0,
    stories: 1,
    ...over,
  });
  it("takes the server's change, rounded", () =>
    expect(figureChange(summary({ change: { reads: 12.6 } }), 'reads')).toBe(13));
  it('works it out when the server gave none', () =>
    expect(figureChange(summary({}), 'reads')).toBe(50));
  it('is null with nothing before, or for all time', () => {
    expect(figureChange(summary({}), 'readers')).toBeNull();
    expect(figureChange(summary({ previous: null, change: { reads: 5 } }), 'reads')).toBeNull();
  });
});

describe('stories and parts', () => {
  it('orders stories by reads in the period, then all time', () => {
    const order = topStories([
      story({ storyId: 1, reads: 2, readsTotal: 5 }),
      story({ storyId: 2, reads: 9 }),
      story({ storyId: 3, reads: 2, readsTotal: 50 }),
    ]).map((s) => s.storyId);
    expect(order).toEqual([2, 3, 1]);
  });
  it('cuts long titles without breaking a Sinhala conjunct', () => {
    expect(shortTitle('Short')).toBe('Short');
    expect(shortTitle('A very long title for an axis label', 10)).toBe('A very lo…');
    // 'ශ්‍රී' is ශ + ් + ZWJ + ර + ී: a cut after the joiner or the virama backs off.
    expect(shortTitle('ශ්‍රීලංකා', 4)).toBe('ශ…');
  });
  it('gives reach as a share of part 1', () => {
    expect(reachPercent(3, 4)).toBe(75);
    expect(reachPercent(0, 0)).toBeNull();
  });
});
