import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  COMMENT_PLATFORM,
  PRODUCT_APP_ID,
  apiPaths,
  sriLankaDay,
  type AuthorStats,
  type StatsPeriod,
  type Summary,
} from '@kathamala/domain';
import { bearer, createTestApp, engagementOf, userOf, type TestApp } from '../../test/helpers.ts';
import type { CarrierSimulator } from '../../adapters/simulator/simulator.ts';
import { addDays, dayStart, percentChange, periodDays, statisticsService } from './service.ts';

let t: TestApp;
let sim: CarrierSimulator;
const today = sriLankaDay(Date.now());
const daysAgo = (n: number) => addDays(today, -n);
/** Noon (Sri Lanka) n days ago, for rows stamped with a time. */
const atDaysAgo = (n: number) =>
  new Date(Date.parse(dayStart(daysAgo(n))) + 6.5 * 3600_000).toISOString();

let a: { token: string; authorId: number; userId: number };
let b: { token: string; authorId: number; userId: number };
let s1: number;
let s2: number;
let draftOnly: number;
let sb: number;
let ep1: number;
let ep2: number;
const readers: string[] = [];

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const post = (url: string, payload: object, token: string) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const ok = async (res: Awaited<ReturnType<typeof get>>) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object;
};
const stats = async (token: string, period: StatsPeriod) =>
  ((await ok(await get(apiPaths.statsAuthor(period), token))) as { stats: AuthorStats }).stats;
const summary = async (token: string, period: StatsPeriod) =>
  ((await ok(await get(apiPaths.statsSummary(period), token))) as { summary: Summary }).summary;
const view = async (token: string, storyId: number, partNumber: number) =>
  ok(await post(apiPaths.view(storyId), { medium: 'WEB', partNumber }, token));

/** Both roll-ups as the jobs run them (views per story per day, then per part). */
const rollup = async (full = true) => {
  await engagementOf(t).rollup({ full });
  return statisticsService({ db: t.database.db }).rollup({ full });
};

/** Joins the product's membership from a story's wall: code by SMS, typed back. */
const joinFrom = async (token: string, mobile: string, storyId?: number) => {
  const typed = `0${mobile.slice(2, 4)} ${mobile.slice(4, 7)} ${mobile.slice(7)}`;
  const asked = await post(
    apiPaths.memberSubscribe(),
    { mobile: typed, appId: PRODUCT_APP_ID, ...(storyId ? { storyId } : {}) },
    token,
  );
  const { refId } = await ok(asked);
  await ok(
    await post(
      apiPaths.memberVerify(),
      { refId, appId: PRODUCT_APP_ID, mfaCode: sim.lastCode(mobile)! },
      token,
    ),
  );
  await sim.idle();
};

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  // The simulator posts notifications to our webhook: the server must listen.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim = t.carrier.simulator!;
  a = await t.newAuthor('Stats writer');
  b = await t.newAuthor('Other writer');
  s1 = await t.createStory(a.token);
  ep1 = await t.publishEpisode(a.token, s1, 'The first night');
  ep2 = await t.publishEpisode(a.token, s1, 'The second night');
  s2 = await t.createStory(a.token, { membersOnly: true });
  await t.publishEpisode(a.token, s2, 'For members');
  draftOnly = await t.createStory(a.token);
  sb = await t.createStory(b.token);
  await t.publishEpisode(b.token, sb, 'Elsewhere');
  for (let i = 0; i < 3; i++) readers.push(await t.signup('Stats reader'));
  const [r1, r2, r3] = readers as [string, string, string];
  const [u1, u2] = [userOf(r1), userOf(r2)];

  // Views today through the real call; older ones as rows on their days.
  await view(r1, s1, 1);
  await view(r1, s1, 2);
  await view(r2, s1, 1);
  await view(r3, s1, 1);
  await view(r1, sb, 1);
  await t.rows(sql`insert into story_views (story_id, user_id, part_number, day) values
    (${s1}, ${u1}, 1, ${daysAgo(10)}::date), (${s1}, ${u2}, 2, ${daysAgo(40)}::date)`);

  // Ratings 4 and 5 now, 3 forty days ago.
  await ok(await post(apiPaths.rate(s1), { rating: '4' }, r1));
  await ok(await post(apiPaths.rate(s1), { rating: '5' }, r2));
  await ok(await post(apiPaths.rate(s1), { rating: '3' }, r3));
  await t.rows(sql`update ratings set updated_at = ${atDaysAgo(40)}::timestamptz
    where story_id = ${s1} and user_id = ${userOf(r3)}`);

  // Comments on parts 1 and 2 now, one more on part 1 forty days ago.
  const comment = async (token: string, episodeId: number) =>
    (
      await ok(
        await post(
          apiPaths.comment(),
          { storyId: s1, episodeId, feedback: 'Lovely.', platform: COMMENT_PLATFORM },
          token,
        ),
      )
    ).commentId as number;
  await comment(r1, ep1);
  await comment(r1, ep2);
  await comment(r2, ep1);
  await t.rows(sql`update comments set created_at = ${atDaysAgo(40)}::timestamptz
    where story_id = ${s1} and user_id = ${u2}`);

  await ok(await get(apiPaths.bookmark(s1, 1), r1));
  await ok(await get(apiPaths.bookmark(s1, 1), r2));
  await ok(
    await t.app.inject({
      method: 'PUT',
      url: apiPaths.follow(),
      headers: bearer(r1),
      payload: { followed_id: a.userId },
    }),
  );
  await ok(
    await t.app.inject({
      method: 'PUT',
      url: apiPaths.follow(),
      headers: bearer(r2),
      payload: { followed_id: a.userId },
    }),
  );
  await ok(
    await t.app.inject({
      method: 'PUT',
      url: apiPaths.follow(),
      headers: bearer(r3),
      payload: { followed_id: b.userId },
    }),
  );

  // Alerts need a subscribed mobile through the API: here the rows they leave.
  await t.rows(sql`insert into story_alerts (user_id, story_id, created_at) values
    (${u1}, ${s1}, now()), (${u2}, ${s1}, ${atDaysAgo(40)}::timestamptz)`);

  // r3 joins on the members-only story's wall; r2 joins with no story named.
  await joinFrom(r3, '94771000001', s2);
  await joinFrom(r2, '94771000002');

  await rollup();
}, 120_000);
afterAll(() => t.close());

describe('author statistics', () => {
  it('counts the views, ratings, comments, bookmarks, follows, alerts and joins made', async () => {
    const st = await stats(a.token, '30');
    expect(st).toMatchObject({ period: '30', from: daysAgo(29), to: today });
    expect(st.followers).toBe(2);
    expect(st.followersGained).toBe(2);
    expect(st.readsByDay).toEqual([
      { day: daysAgo(10), reads: 1 },
      { day: today, reads: 4 },
    ]);
    // Stories with episodes out, newest first; the story with no episode is left out.
    expect(st.stories.map((s) => s.storyId)).toEqual([s2, s1]);
    expect(st.stories.some((s) => s.storyId === draftOnly || s.storyId === sb)).toBe(false);

    const one = st.stories.find((s) => s.storyId === s1)!;
    expect(one).toMatchObject({
      reads: 5,
      readsTotal: 6,
      ratings: 2,
      ratingAverage: 4,
      ratingCount: 3,
      comments: 2,
      bookmarks: 2,
      alertSubscribers: 2,
      alertsGained: 1,
      membersGained: 0,
    });
    expect(one.readsByDay).toEqual(st.readsByDay);
    expect(one.ratingsByValue).toEqual([
      { rating: 3, count: 1 },
      { rating: 4, count: 1 },
      { rating: 5, count: 1 },
    ]);
    // Part 1: r1, r2, r3 ever (r1 twice on two days); part 2: r1 today, r2 forty days ago.
    expect(one.episodes).toEqual([
      { partNumber: 1, title: 'The first night', reads: 4, readers: 3, comments: 1 },
      { partNumber: 2, title: 'The second night', reads: 1, readers: 2, comments: 1 },
    ]);

    const members = st.stories.find((s) => s.storyId === s2)!;
    expect(members).toMatchObject({ membersOnly: true, membersGained: 1, reads: 0 });
    expect(members.ratingAverage).toBeNull();
    expect(members.readsByDay).toEqual([]);
  });

  it('narrows and widens with the period', async () => {
    const week = (await stats(a.token, '7')).stories.find((s) => s.storyId === s1)!;
    expect(week).toMatchObject({ reads: 4, ratings: 2, comments: 2 });
    expect(week.readsByDay).toEqual([{ day: today, reads: 4 }]);
    const all = await stats(a.token, 'all');
    expect(all.from).toBeNull();
    const ever = all.stories.find((s) => s.storyId === s1)!;
    expect(ever).toMatchObject({ reads: 6, ratings: 3, comments: 3, alertsGained: 2 });
    expect(ever.episodes.map((e) => [e.reads, e.comments])).toEqual([
      [4, 2],
      [2, 1],
    ]);
    expect(all.readsByDay.map((d) => d.day)).toEqual([daysAgo(40), daysAgo(10), today]);
  });

  it('defaults to 30 days, answers privately and refuses a period it does not know', async () => {
    const res = await get('/api/v1/stats/author/', a.token);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json().object.stats.period).toBe('30');
    const bad = await get('/api/v1/stats/author/?period=365', a.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/period/);
  });

  it("shows an author only their own stories: there is no one else's to ask for", async () => {
    const theirs = await stats(b.token, '30');
    expect(theirs.stories.map((s) => s.storyId)).toEqual([sb]);
    expect(theirs.stories[0]).toMatchObject({ reads: 1, ratings: 0, membersGained: 0 });
    expect(theirs.followers).toBe(1);
    // An author id in the query is not a field it takes.
    const sneaky = await get(`/api/v1/stats/author/?authorId=${a.authorId}`, b.token);
    expect(sneaky.statusCode).toBe(400);
  });

  it('refuses a reader (403) and a visitor (401)', async () => {
    for (const url of [apiPaths.statsAuthor('30'), apiPaths.statsSummary('30')]) {
      const reader = await get(url, readers[0]);
      expect(reader.statusCode).toBe(403);
      expect(reader.json().message).toMatch(/authors/);
      expect((await get(url)).statusCode).toBe(401);
    }
  });
});

describe('summary', () => {
  it('compares the period with the one just before', async () => {
    const s = await summary(a.token, '30');
    expect(s.current).toEqual({
      reads: 5,
      readers: 3,
      ratings: 2,
      ratingAverage: 4.5,
      comments: 2,
      bookmarks: 2,
      followersGained: 2,
      alertsGained: 1,
      membersGained: 1,
      episodesPublished: 3,
    });
    expect(s.previous).toEqual({
      reads: 1,
      readers: 1,
      ratings: 1,
      ratingAverage: 3,
      comments: 1,
      bookmarks: 0,
      followersGained: 0,
      alertsGained: 1,
      membersGained: 0,
      episodesPublished: 0,
    });
    expect(s.change).toMatchObject({
      reads: 400,
      readers: 200,
      ratings: 100,
      ratingAverage: 50,
      comments: 100,
      alertsGained: 0,
      bookmarks: null,
      episodesPublished: null,
    });
    expect(s).toMatchObject({ followers: 2, alertSubscribers: 2, stories: 2 });
  });

  it('has no previous period for all time', async () => {
    const s = await summary(a.token, 'all');
    expect(s.previous).toBeNull();
    expect(Object.values(s.change).every((v) => v === null)).toBe(true);
    expect(s.current).toMatchObject({ reads: 6, readers: 3, ratings: 3, ratingAverage: 4 });
  });
});

describe('roll-up', () => {
  it('changes nothing when run again, and picks up a new view of today', async () => {
    expect((await rollup(true)).changed).toBe(0);
    expect((await rollup(false)).changed).toBe(0);
    const late = await t.signup('Late reader');
    await view(late, s1, 2);
    // Part 2's views that day, part 2's readers, and the new reader's days.
    expect((await rollup(false)).changed).toBe(3);
    const part2 = (await stats(a.token, '7')).stories
      .find((s) => s.storyId === s1)!
      .episodes.find((e) => e.partNumber === 2)!;
    expect(part2).toMatchObject({ reads: 2, readers: 3 });
  });

  it('records the story a membership began on only when the number becomes a member', async () => {
    const joins = await t.rows<{ storyId: number | null }>(
      sql`select story_id as "storyId" from membership_joins order by id`,
    );
    expect(joins.map((j) => j.storyId)).toEqual([s2, null]);
  });

  it('keeps an unknown story on a code request as none, and still sends the code', async () => {
    const res = await post(
      apiPaths.memberSubscribe(),
      { mobile: '077 100 0003', appId: PRODUCT_APP_ID, storyId: 999_999 },
      readers[0]!,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [code] = await t.rows<{ storyId: number | null }>(
      sql`select story_id as "storyId" from membership_codes where ref_id = ${res.json().object.refId}`,
    );
    expect(code).toEqual({ storyId: null });
  });
});

describe('periods', () => {
  it('count today and the days before it, and the same number before that', () => {
    const noon = Date.parse('2026-03-10T06:30:00Z'); // 12:00 in Colombo
    expect(periodDays('7', noon)).toEqual({
      today: '2026-03-10',
      from: '2026-03-04',
      previousFrom: '2026-02-25',
    });
    // 23:00 UTC is already the next day in Sri Lanka.
    expect(periodDays('30', Date.parse('2026-03-10T23:00:00Z')).today).toBe('2026-03-11');
    expect(periodDays('all', noon)).toEqual({
      today: '2026-03-10',
      from: null,
      previousFrom: null,
    });
    expect(dayStart('2026-03-10')).toBe('2026-03-09T18:30:00.000Z');
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(3, 4)).toBe(-25);
  });
});
