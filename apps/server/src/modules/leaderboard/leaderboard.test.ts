import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, ResultCode, sriLankaDay, type AuthorRank } from '@kathamala/domain';
import { createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { leaderboardService, rankingWindows, type LeaderboardService } from './service.ts';

/*
 * No demo stories: every view, rating and story the boards count is made here, so each
 * position and figure below is known. Views go straight into story_view_days (what the views
 * roll-up keeps) on chosen days, ratings into `ratings` at chosen times.
 */

let t: TestApp;
let board: LeaderboardService;
const now = Date.now();
const DAY_MS = 24 * 3600 * 1000;
const day = (n: number) => sriLankaDay(now - n * DAY_MS);
const week = rankingWindows('week', now);

interface Author {
  token: string;
  authorId: number;
  userId: number;
}
let a: Author, b: Author, c: Author, d: Author, f: Author, g: Author;
let a1: number, a2: number, aDraft: number, b1: number, c1: number, dDraft: number, f1: number;
let g1: number;
let raters: number[];

const publicStory = async (author: Author) => {
  const id = await t.createStory(author.token);
  await t.publishEpisode(author.token, id);
  return id;
};
const views = (storyId: number, daysAgo: number, n: number) =>
  t.rows(sql`insert into story_view_days (story_id, day, views)
    values (${storyId}, ${day(daysAgo)}::date, ${n})`);
const rating = (rater: number, storyId: number, value: number, at: Date) =>
  t.rows(sql`insert into ratings (user_id, story_id, rating, updated_at)
    values (${rater}, ${storyId}, ${value}, ${at.toISOString()}::timestamptz)`);
const setReads = (storyId: number, reads: number) =>
  t.rows(sql`update stories set reads = ${reads}, reads_base = ${reads} where id = ${storyId}`);

/** Just the parts of each entry a test compares. */
const brief = (list: AuthorRank[]) =>
  list.map((r) => ({
    authorId: r.authorId,
    position: r.position,
    previousPosition: r.previousPosition,
    change: r.change,
  }));

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  board = leaderboardService(t.database.db);
  a = await t.newAuthor('Board A');
  b = await t.newAuthor('Board B');
  c = await t.newAuthor('Board C');
  d = await t.newAuthor('Board D');
  f = await t.newAuthor('Board F');
  g = await t.newAuthor('Board G');
  a1 = await publicStory(a);
  a2 = await publicStory(a);
  aDraft = await t.createStory(a.token);
  b1 = await publicStory(b);
  c1 = await publicStory(c);
  // D has only a draft: no public story, never on a board whatever its rows say.
  dDraft = await t.createStory(d.token);
  f1 = await publicStory(f);
  // G has a public story nobody reads, rated once in the week before.
  g1 = await publicStory(g);
  raters = [];
  for (let i = 0; i < 6; i++) raters.push(userOf(await t.signup('Board rater')));

  // Views. This week is days 0..6 ago, the week before 7..13, this month 0..29.
  await views(a1, 0, 10);
  await views(a1, 6, 5); // the first day of this week
  await views(a1, 7, 2); // the last day of the week before
  await views(a2, 3, 5);
  await views(aDraft, 0, 1000); // a draft's rows never count
  await views(b1, 1, 30);
  await views(b1, 10, 50);
  await views(c1, 7, 100);
  await views(c1, 20, 7);
  await views(c1, 30, 400); // before this month
  await views(dDraft, 0, 5000);
  await views(f1, 2, 20);
  // All-time reads as stories.reads holds them (seeded reads included).
  await setReads(a1, 500);
  await setReads(a2, 100);
  await setReads(b1, 605);
  await setReads(c1, 700);
  await setReads(f1, 20);

  // Ratings. A: one 5 this week, and a 2 a moment before the week began.
  const weekStart = week.ratingsFrom!;
  await rating(raters[0]!, a1, 5, new Date(now - 60_000));
  await rating(raters[1]!, a2, 2, new Date(weekStart.getTime() - 1));
  // B: four 4.5s this week, the first exactly as the week begins.
  await rating(raters[0]!, b1, 4.5, weekStart);
  for (const r of raters.slice(1, 4)) await rating(r, b1, 4.5, new Date(now - DAY_MS));
  // C: two 3s this week.
  await rating(raters[0]!, c1, 3, new Date(now - 2 * DAY_MS));
  await rating(raters[1]!, c1, 3, new Date(now - 3 * DAY_MS));
  // G: one 1 in the week before only.
  await rating(raters[2]!, g1, 1, new Date(now - 10 * DAY_MS));
  // Top marks on drafts count for nobody.
  for (const r of raters) await rating(r, dDraft, 5, new Date(now - 60_000));
  for (const r of raters) await rating(r, aDraft, 5, new Date(now - 60_000));
});
afterAll(() => t.close());

describe('by reads', () => {
  it('ranks this week’s views, against the week before; ties share a position, older author first', async () => {
    const r = await board.rankings({}, now);
    expect(r.by).toBe('reads');
    expect(r.period).toBe('week');
    expect(brief(r.authors)).toEqual([
      // The week before: C 100, B 50, A 2 (F had none).
      { authorId: b.authorId, position: 1, previousPosition: 2, change: 1 },
      { authorId: a.authorId, position: 2, previousPosition: 3, change: 1 },
      { authorId: f.authorId, position: 2, previousPosition: null, change: null },
    ]);
    const first = r.authors[1]!;
    expect(first).toMatchObject({
      authorId: a.authorId,
      userId: a.userId,
      reads: 20,
      rating: 5,
      ratingCount: 1,
      stories: 2,
    });
    expect(first.name).toMatch(/^Board A/);
    expect(r.authors.map((x) => x.reads)).toEqual([30, 20, 20]);
  });

  it('counts a month as today and the 29 days before', async () => {
    const r = await board.rankings({ period: 'month' }, now);
    expect(r.authors.map((x) => [x.authorId, x.reads])).toEqual([
      [c.authorId, 107],
      [b.authorId, 80],
      [a.authorId, 22],
      [f.authorId, 20],
    ]);
    // The month before had C's 400 only.
    expect(brief(r.authors)[0]).toEqual({
      authorId: c.authorId,
      position: 1,
      previousPosition: 1,
      change: 0,
    });
    expect(r.authors.slice(1).every((x) => x.previousPosition === null)).toBe(true);
  });

  it('ranks all time by the stories’ reads and compares with the reads of a week ago', async () => {
    const r = await board.rankings({ period: 'all' }, now);
    // Now: C 700, B 605, A 600, F 20. A week ago (less this week's views): C 700, A 580, B 575, F 0.
    expect(brief(r.authors)).toEqual([
      { authorId: c.authorId, position: 1, previousPosition: 1, change: 0 },
      { authorId: b.authorId, position: 2, previousPosition: 3, change: 1 },
      { authorId: a.authorId, position: 3, previousPosition: 2, change: -1 },
      { authorId: f.authorId, position: 4, previousPosition: null, change: null },
    ]);
    expect(r.authors.map((x) => x.reads)).toEqual([700, 605, 600, 20]);
  });
});

describe('by rating', () => {
  it('ranks by a Bayesian average, so one 5-star vote does not top four 4.5s', async () => {
    const r = await board.rankings({ by: 'rating' }, now);
    expect(r.authors.map((x) => [x.authorId, x.rating, x.ratingCount])).toEqual([
      [b.authorId, 4.5, 4],
      [a.authorId, 5, 1],
      [c.authorId, 3, 2],
    ]);
    // The week before had only A's 2 (given a millisecond before this week began).
    expect(brief(r.authors)).toEqual([
      { authorId: b.authorId, position: 1, previousPosition: null, change: null },
      { authorId: a.authorId, position: 2, previousPosition: 1, change: -1 },
      { authorId: c.authorId, position: 3, previousPosition: null, change: null },
    ]);
  });

  it('over all time counts every rating of a public story, and a week ago those older than this week', async () => {
    const r = await board.rankings({ by: 'rating', period: 'all' }, now);
    expect(r.authors.map((x) => [x.authorId, x.rating, x.ratingCount])).toEqual([
      [b.authorId, 4.5, 4],
      [a.authorId, 3.5, 2],
      [c.authorId, 3, 2],
      [g.authorId, 1, 1],
    ]);
    // A week ago: A's 2 and G's 1, at a site mean of 1.5.
    expect(r.authors.map((x) => x.previousPosition)).toEqual([null, 1, null, 2]);
  });

  it('leaves out authors nobody rated in the period, though they count for the period before', async () => {
    const month = await board.rankings({ by: 'rating', period: 'month' }, now);
    expect(month.authors.map((x) => x.authorId)).not.toContain(f.authorId);
    expect(month.authors.map((x) => x.authorId)).toContain(g.authorId);
    // G was rated only in the week before: off this week's board, and A (2 at a mean of 1.5)
    // still ranked above G (1) then.
    const week = await board.rankings({ by: 'rating' }, now);
    expect(week.authors.map((x) => x.authorId)).not.toContain(g.authorId);
    expect(week.authors.find((x) => x.authorId === a.authorId)!.previousPosition).toBe(1);
  });
});

describe('period boundaries', () => {
  it('moves a day’s views and a rating’s time from one period to the next at Sri Lanka midnight', async () => {
    // A day later, day 6 (A's 5 views) has left this week and day 13 is the week before's first.
    const later = await board.rankings({}, now + DAY_MS);
    const aLater = later.authors.find((x) => x.authorId === a.authorId)!;
    expect(aLater.reads).toBe(15);
    // And B's rating given at this week's first instant is then in the week before.
    const rated = await board.rankings({ by: 'rating' }, now + DAY_MS);
    expect(rated.authors.find((x) => x.authorId === b.authorId)!.ratingCount).toBe(3);
    expect(rated.authors.find((x) => x.authorId === b.authorId)!.previousPosition).toBe(1);
  });

  it('windows are whole Sri Lanka days', () => {
    const w = rankingWindows('week', now);
    expect(w.viewsTo).toBe(day(0));
    expect(w.viewsFrom).toBe(day(6));
    expect(w.prevViewsTo).toBe(day(7));
    expect(w.prevViewsFrom).toBe(day(13));
    expect(w.ratingsFrom!.toISOString()).toBe(new Date(`${day(6)}T00:00:00+05:30`).toISOString());
    const m = rankingWindows('month', now);
    expect([m.viewsFrom, m.prevViewsTo, m.prevViewsFrom]).toEqual([day(29), day(30), day(59)]);
    const all = rankingWindows('all', now);
    expect(all.ratingsFrom).toBeNull();
    expect(all.prevRatingsTo.toISOString()).toBe(w.ratingsFrom!.toISOString());
  });
});

describe('drafts and authors without public stories', () => {
  it('never lists them, nor counts a draft’s rows for its author', async () => {
    for (const by of ['reads', 'rating'] as const)
      for (const period of ['week', 'month', 'all'] as const) {
        const r = await board.rankings({ by, period }, now);
        expect(r.authors.map((x) => x.authorId)).not.toContain(d.authorId);
        const entry = r.authors.find((x) => x.authorId === a.authorId);
        if (entry) expect(entry.stories).toBe(2);
        if (entry && by === 'rating') expect(entry.ratingCount).toBeLessThanOrEqual(2);
      }
  });
});

describe('GET /api/v1/stats/authors/', () => {
  it('answers the default board, public and cacheable', async () => {
    const res = await t.app.inject({ url: apiPaths.statsAuthors() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=60/);
    const body = res.json();
    expect(body.code).toBe(0);
    // object.authors is the ranked list itself (SPEC.md 3); what it was ranked by sits beside it.
    expect(Array.isArray(body.object.authors)).toBe(true);
    expect(body.object.by).toBe('reads');
    expect(body.object.period).toBe('week');
    expect(body.object.authors.map((x: AuthorRank) => x.authorId)).toEqual([
      b.authorId,
      a.authorId,
      f.authorId,
    ]);
    const bare = await t.app.inject({ url: '/api/v1/stats/authors/' });
    expect(bare.json().object).toEqual(body.object);
  });

  it('takes by and period', async () => {
    const res = await t.app.inject({ url: apiPaths.statsAuthors({ by: 'rating', period: 'all' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().object).toMatchObject({ by: 'rating', period: 'all' });
    expect(res.json().object.authors[0].authorId).toBe(b.authorId);
  });

  it('refuses values it does not know with 400 and a sentence', async () => {
    for (const query of ['by=popularity', 'period=year', 'period=7', 'by=', 'limit=5']) {
      const res = await t.app.inject({ url: `/api/v1/stats/authors/?${query}` });
      expect(res.statusCode, query).toBe(400);
      const body = res.json();
      expect(body.code).toBe(ResultCode.invalidInput);
      expect(body.message).toMatch(/\.$/);
    }
    const res = await t.app.inject({ url: '/api/v1/stats/authors/?period=year' });
    expect(res.json().message).toBe("'period' must be one of: week, month, all.");
  });
});
