import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import {
  apiPaths,
  ResultCode,
  sriLankaDay,
  type StoryDetails,
  type StoryListItem,
} from '@kathamala/domain';
import { bearer, createTestApp, engagementOf, type TestApp } from '../../test/helpers.ts';
import { DEMO_MEMBER, DEMO_PASSWORD, DEMO_RATERS, demoStories } from '../../db/seed/index.ts';
import { storiesRepo } from '../stories/repo.ts';
import { parseRating, RATINGS_JOB, ROLLUP_JOB } from './service.ts';

let t: TestApp;
let all: StoryListItem[];
let reader: string;

const get = (url: string, token?: string) =>
  t.app.inject({ url, headers: token ? bearer(token) : {} });
const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
const rate = (storyId: number, rating: string, token: string) =>
  post(apiPaths.rate(storyId), { rating }, token);
const rows = <T>(query: SQL) => t.rows<T>(query);
const userId = (token: string) => Number(decodeJwt(token).sub);

/** Every public story, following the pages of a list. */
const listAll = async (sortBy: 'rate' | 'new' | 'reads' = 'rate') => {
  const out: StoryListItem[] = [];
  for (let page = 1; ; page++) {
    const body = (await get(apiPaths.listV2({ page, sortBy }))).json().object;
    out.push(...body.stories);
    if (out.length >= body.total || !body.stories.length) return out;
  }
};
const details = async (storyId: number, token?: string): Promise<StoryDetails> =>
  (await get(apiPaths.preview(storyId), token)).json().object;
/**
 * Runs a story's ratings job now (the worker runs it within seconds of a rating), and waits for
 * its notice (on PostgreSQL it travels), as a reader's next request would come after it.
 */
const settle = async (storyId: number) => {
  await engagementOf(t).refreshRating(storyId);
  await t.cacheBus.sync();
};
const story = (pred: (s: StoryListItem) => boolean) => {
  const found = all.find(pred);
  if (!found) throw new Error('no demo story matches');
  return found;
};

beforeAll(async () => {
  t = await createTestApp();
  all = await listAll();
  reader = await t.signup('Rater');
});
afterAll(() => t.close());

describe('the seed', () => {
  it('gives the demo stories real rating rows whose mean is the seeded rating', async () => {
    const released = demoStories().filter((s) => !(s.releaseInDays && s.releaseInDays > 0));
    for (const s of released) {
      const listed = story((x) => x.title === s.title.normalize('NFC'));
      expect(listed.rating).toBe(s.rating);
      expect(listed.reads).toBe(s.reads);
      const d = await details(listed.storyId);
      expect(d.story.ratingCount).toBe(DEMO_RATERS.length);
      const [agg] = await rows<{ n: number; mean: number }>(
        sql`select count(*)::int as n, avg(rating)::float8 as mean from ratings where story_id = ${listed.storyId}`,
      );
      expect(agg).toEqual({ n: DEMO_RATERS.length, mean: s.rating });
      if (listed.kind !== 0) {
        // Claps are whole numbers.
        const votes = await rows<{ rating: number }>(
          sql`select rating from ratings where story_id = ${listed.storyId}`,
        );
        expect(votes.every((v) => Number.isInteger(Number(v.rating)))).toBe(true);
      }
    }
    // Reads are the seeded base plus the demo readers' counted views, whenever the roll-up runs.
    const [base] = await rows<{ n: number; viewed: number }>(
      sql`select count(*) filter (where reads <> reads_base + (select count(*) from story_views v
            where v.story_id = s.id))::int as n,
          count(*) filter (where reads_base < reads)::int as viewed from stories s`,
    );
    expect(base!.n).toBe(0);
    expect(base!.viewed).toBeGreaterThan(0);
    // The demo raters log in like every demo account.
    await t.login(DEMO_RATERS[0].email, DEMO_PASSWORD);
  });
});

describe('ratings and claps', () => {
  it('parses 0 to 5 in half steps and nothing else', () => {
    for (const ok of ['0', '0.5', '4', '4.5', '5', '5.0', ' 3 '])
      expect(parseRating(ok)).toBe(Number(ok.trim()));
    for (const bad of ['5.5', '-1', 'x', '', '4.3', '1e1', '6', 'NaN', '4,5'])
      expect(() => parseRating(bad)).toThrow();
  });

  it('refuses 5.5, -1, x, an empty string and 4.3 with a 400 naming the rule, storing nothing', async () => {
    const free = story((s) => !s.membersOnly && s.kind === 0);
    const cases: [string, RegExp][] = [
      ['5.5', /5 or less/],
      ['-1', /from 0 to 5/],
      ['x', /from 0 to 5/],
      ['', /from 0 to 5/],
      ['4.3', /half steps/],
    ];
    for (const [rating, rule] of cases) {
      const res = await rate(free.storyId, rating, reader);
      expect(res.statusCode, rating).toBe(400);
      expect(res.json()).toMatchObject({ code: ResultCode.invalidInput });
      expect(res.json().message).toMatch(rule);
    }
    const missing = await post(apiPaths.rate(free.storyId), {}, reader);
    expect(missing.statusCode).toBe(400);
    const [n] = await rows<{ n: number }>(
      sql`select count(*)::int as n from ratings where user_id = ${userId(reader)}`,
    );
    expect(n!.n).toBe(0);
    expect((await details(free.storyId, reader)).userRating).toBeNull();
  });

  it('stores a burst of 5 claps as one rating and answers a fresh token and the new mean', async () => {
    const clapped = story((s) => !s.membersOnly && s.kind === 0);
    const before = await details(clapped.storyId);
    const res = await rate(clapped.storyId, '5', reader);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().object;
    expect(typeof body.accesstoken).toBe('string');
    expect(decodeJwt(body.accesstoken).sub).toBe(String(userId(reader)));
    expect(body.userRating).toBe(5);
    expect(body.ratingCount).toBe(before.story.ratingCount + 1);
    const expected = (before.story.rating * before.story.ratingCount + 5) / body.ratingCount;
    expect(body.rating).toBeCloseTo(expected, 2);
    const stored = await rows<{ rating: number }>(
      sql`select rating from ratings where user_id = ${userId(reader)} and story_id = ${clapped.storyId}`,
    );
    expect(stored).toHaveLength(1);
    expect(Number(stored[0]!.rating)).toBe(5);
    // The token still works, and the details show the reader's rating, then the new count.
    const mine = await details(clapped.storyId, body.accesstoken);
    expect(mine.userRating).toBe(5);
    await settle(clapped.storyId);
    expect((await details(clapped.storyId, body.accesstoken)).story.ratingCount).toBe(
      body.ratingCount,
    );
    // A visitor's preview carries no one's rating.
    expect((await details(clapped.storyId)).userRating).toBeNull();
  });

  it('answers a token that says whether the rater is an author, as they are now', async () => {
    const s = story((x) => !x.membersOnly && x.kind === 0);
    const token = await t.signup('Soon an author');
    const before = (await rate(s.storyId, '4', token)).json().object;
    expect(decodeJwt(before.accesstoken).author).toBe(false);
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      headers: bearer(token),
      payload: { name: `Rater turned author ${Date.now()}` },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    // The old token's session: its next rating's token says author.
    const after = (await rate(s.storyId, '5', token)).json().object;
    expect(decodeJwt(after.accesstoken).author).toBe(true);
  });

  it('replaces the reader’s earlier rating: the count stays, the mean moves', async () => {
    const s = story((x) => !x.membersOnly && x.kind === 0);
    const first = (await rate(s.storyId, '5', reader)).json().object;
    const second = (await rate(s.storyId, '1.5', reader)).json().object;
    expect(second.ratingCount).toBe(first.ratingCount);
    expect(second.rating).toBeLessThan(first.rating);
    expect(second.userRating).toBe(1.5);
    await settle(s.storyId);
    const part = (await get(apiPaths.part(s.storyId, 1), reader)).json().object as StoryDetails;
    expect(part.userRating).toBe(1.5);
    expect(part.story.ratingCount).toBe(second.ratingCount);
    expect(part.story.rating).toBe(second.rating);
  });

  it('takes a rating back with 0: it no longer counts in the mean or the count', async () => {
    const s = story((x) => !x.membersOnly && x.kind === 2);
    const taker = await t.signup();
    const before = (await details(s.storyId)).story;
    const rated = (await rate(s.storyId, '5', taker)).json().object;
    expect(rated.ratingCount).toBe(before.ratingCount + 1);
    const cleared = await rate(s.storyId, '0', taker);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().object).toMatchObject({
      userRating: 0,
      ratingCount: before.ratingCount,
      rating: before.rating,
    });
    const stored = await rows<{ n: number }>(
      sql`select count(*)::int as n from ratings where user_id = ${userId(taker)} and story_id = ${s.storyId}`,
    );
    expect(stored[0]!.n).toBe(0);
    const part = (await get(apiPaths.part(s.storyId, 1), taker)).json().object as StoryDetails;
    expect(part.userRating).toBeNull();
    await settle(s.storyId);
    expect((await details(s.storyId, taker)).story.ratingCount).toBe(before.ratingCount);
    // Clearing twice is harmless, and a rating may be given again.
    expect((await rate(s.storyId, '0', taker)).statusCode).toBe(200);
    expect((await rate(s.storyId, '3', taker)).json().object.userRating).toBe(3);
  });

  it('needs a subscription for a members-only story, a login, and a released story', async () => {
    const locked = story((s) => s.membersOnly);
    const refused = await rate(locked.storyId, '4', reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(ResultCode.subscriptionRequired);
    const member = await t.login(DEMO_MEMBER, DEMO_PASSWORD);
    expect((await rate(locked.storyId, '4', member)).statusCode).toBe(200);

    const visitor = await post(apiPaths.rate(locked.storyId), { rating: '4' });
    expect(visitor.statusCode).toBe(401);
    expect((await rate(2_000_000, '4', reader)).statusCode).toBe(404);
    const upcoming = (await get(apiPaths.upcoming())).json().object.upcomingStories;
    expect(upcoming.length).toBeGreaterThan(0);
    expect((await rate(upcoming[0].storyId, '4', reader)).statusCode).toBe(404);
  });
});

describe('a rating while others read', () => {
  it('shows the rater their own rating at once; the story’s mean and count follow in its job', async () => {
    const s = story((x) => !x.membersOnly && x.kind !== 0);
    const rater = await t.signup('Prompt');
    await settle(s.storyId);
    const before = (await details(s.storyId)).story;
    const answer = (await rate(s.storyId, '4', rater)).json().object;
    expect(answer.ratingCount).toBe(before.ratingCount + 1);
    // The rater's next request: their own rating, whatever the story's count says yet.
    expect((await details(s.storyId, rater)).userRating).toBe(4);
    const part = (await get(apiPaths.part(s.storyId, 1), rater)).json().object as StoryDetails;
    expect(part.userRating).toBe(4);
    // The request left the story row (held by every reader of it) alone.
    const [row] = await rows<{ n: number }>(
      sql`select rating_count as n from stories where id = ${s.storyId}`,
    );
    expect(Number(row!.n)).toBe(before.ratingCount);
    // The worker runs the story's ratings job: everyone then sees the new count and mean.
    let seen = before.ratingCount;
    for (let i = 0; i < 60 && seen !== answer.ratingCount; i++) {
      await new Promise((r) => setTimeout(r, 250));
      seen = (await details(s.storyId)).story.ratingCount;
    }
    expect(seen).toBe(answer.ratingCount);
    expect((await details(s.storyId)).story.rating).toBe(answer.rating);
  });
});

/** A new author with two fresh stories of one episode each. */
async function twoNewStories() {
  const { token } = await t.newAuthor('Bayes');
  const ids: number[] = [];
  for (const title of ['One Loud Fan', 'Quietly Loved']) {
    const storyId = await t.createStory(token, { title });
    await t.publishEpisode(token, storyId);
    ids.push(storyId);
  }
  return ids as [number, number];
}

describe('readers rating at once', () => {
  it('counts every one of them (each a row of its own; the story counts its rows)', async () => {
    const s = story((x) => !x.membersOnly && x.kind !== 0);
    await settle(s.storyId);
    const before = (await details(s.storyId)).story.ratingCount;
    const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => t.signup('Crowd')));
    const answers = await Promise.all(
      tokens.map((token, i) => rate(s.storyId, String(i + 1), token)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await settle(s.storyId);
    const after = await details(s.storyId);
    expect(after.story.ratingCount).toBe(before + 5);
    const [agg] = await rows<{ n: number; mean: number }>(
      sql`select count(*)::int as n, round(avg(rating)::numeric, 2)::float8 as mean from ratings where story_id = ${s.storyId}`,
    );
    expect(agg).toEqual({ n: after.story.ratingCount, mean: after.story.rating });
  });
});

describe('sortBy=rate', () => {
  it('puts many 4.5 votes above a single 5-star vote (Bayesian average)', async () => {
    const [loudFan, quietlyLoved] = await twoNewStories();
    expect((await rate(loudFan, '5', reader)).statusCode).toBe(200);
    for (let i = 0; i < 8; i++) {
      const token = await t.signup('Voter');
      expect((await rate(quietlyLoved, '4.5', token)).statusCode).toBe(200);
    }
    await settle(loudFan);
    await settle(quietlyLoved);
    const ranked = await listAll('rate');
    const at = (id: number) => ranked.findIndex((s) => s.storyId === id);
    expect(at(loudFan)).toBeGreaterThan(-1);
    expect(at(quietlyLoved)).toBeLessThan(at(loudFan));
    // The displayed rating is still the plain mean.
    expect(ranked[at(loudFan)]!.rating).toBe(5);
    expect(ranked[at(quietlyLoved)]!.rating).toBe(4.5);
    // Scores only go down the list.
    const scores = await rows<{ id: number; score: number }>(
      sql`select id, rating_score::float8 as score from stories`,
    );
    const score = new Map(scores.map((r) => [Number(r.id), Number(r.score)]));
    const ordered = ranked.map((s) => score.get(s.storyId)!);
    expect(ordered).toEqual([...ordered].sort((a, b) => b - a));
  });
});

describe('bookmarks', () => {
  it('ends bookmarked after 1, 1, 0, 1 and lists the story once, newest first', async () => {
    const me = await t.signup('Keeper');
    const [a, b] = all.filter((s) => !s.membersOnly);
    const states: boolean[] = [];
    for (const state of [1, 1, 0, 1] as const) {
      const res = await get(apiPaths.bookmark(a!.storyId, state), me);
      expect(res.statusCode, res.body).toBe(200);
      states.push(res.json().object.bookmarked);
    }
    expect(states).toEqual([true, true, false, true]);
    expect((await get(apiPaths.bookmark(b!.storyId, 1), me)).json().object.bookmarked).toBe(true);
    const list = (await get(apiPaths.bookmarks(), me)).json().object.list;
    expect(list.map((i: { story: StoryListItem }) => i.story.storyId)).toEqual([
      b!.storyId,
      a!.storyId,
    ]);
    expect(list[0]).toMatchObject({ progress: null, story: { title: b!.title } });
    expect((await details(a!.storyId, me)).bookmarked).toBe(true);
    expect((await details(a!.storyId)).bookmarked).toBe(false);

    // Another reader sees none of them.
    const other = await t.signup('Other');
    expect((await get(apiPaths.bookmarks(), other)).json().object.list).toEqual([]);
    expect((await details(a!.storyId, other)).bookmarked).toBe(false);
  });

  it('refuses visitors, unknown stories and states other than 0 and 1', async () => {
    const me = await t.signup('Keeper');
    expect((await get(apiPaths.bookmarks())).statusCode).toBe(401);
    expect((await get(apiPaths.bookmark(all[0]!.storyId, 1))).statusCode).toBe(401);
    expect((await get(apiPaths.bookmark(2_000_000, 1), me)).statusCode).toBe(404);
    // Removing is idempotent, even for a story that is not there.
    expect((await get(apiPaths.bookmark(2_000_000, 0), me)).json().object.bookmarked).toBe(false);
    expect((await get(`/api/v1/story/bookmark/${all[0]!.storyId}/2`, me)).statusCode).toBe(400);
    // 'list' is not taken for a story id, and a story id is not taken for 'list'.
    expect((await get('/api/v1/story/bookmark/list/1', me)).statusCode).toBe(400);
    expect((await get('/api/v1/story/bookmark/list/', me)).statusCode).toBe(200);
  });
});

describe('reading progress', () => {
  it('is saved and listed most recent first, with a finished story left out', async () => {
    const me = await t.signup('Progress');
    const save = (storyId: number, partNumber: number, position: number, token = me) =>
      post(apiPaths.progress(), { storyId, partNumber, position }, token);
    const multi = all.filter((s) => !s.membersOnly && s.numberOfparts >= 2);
    const [x, y, z] = multi;
    expect(z).toBeDefined();
    expect((await save(x!.storyId, 1, 0.3)).json()).toEqual({ code: 0, object: { saved: true } });
    expect((await save(y!.storyId, 2, 0.5)).statusCode).toBe(200);
    const list = async () =>
      (await get(apiPaths.continueReading(), me)).json().object.list as {
        story: StoryListItem;
        progress: { partNumber: number; position: number; updatedAt: string };
      }[];
    expect((await list()).map((i) => i.story.storyId)).toEqual([y!.storyId, x!.storyId]);
    expect((await list())[0]!.progress).toMatchObject({ partNumber: 2, position: 0.5 });
    // Moving on in x brings it to the top; one row per story.
    expect((await save(x!.storyId, 2, 0.1)).statusCode).toBe(200);
    const now = await list();
    expect(now.map((i) => i.story.storyId)).toEqual([x!.storyId, y!.storyId]);
    expect(now[0]!.progress.partNumber).toBe(2);
    // Read to the end of the last part: finished, left out.
    expect((await save(z!.storyId, z!.numberOfparts, 0.95)).statusCode).toBe(200);
    expect((await list()).map((i) => i.story.storyId)).not.toContain(z!.storyId);
    // A bookmark shows where the reader is.
    await get(apiPaths.bookmark(x!.storyId, 1), me);
    const marks = (await get(apiPaths.bookmarks(), me)).json().object.list;
    expect(marks[0].progress).toMatchObject({ partNumber: 2, position: 0.1 });
    // A part that does not exist, a position out of range, a visitor.
    expect((await save(x!.storyId, x!.numberOfparts + 5, 0.2)).statusCode).toBe(404);
    expect((await save(2_000_000, 1, 0.2)).statusCode).toBe(404);
    expect((await save(x!.storyId, 1, 1.5)).statusCode).toBe(400);
    expect(
      (await post(apiPaths.progress(), { storyId: x!.storyId, partNumber: 1, position: 0 }))
        .statusCode,
    ).toBe(401);
    // Nobody else's list shows it.
    const other = await t.signup('Other');
    expect((await get(apiPaths.continueReading(), other)).json().object.list).toEqual([]);
  });
});

describe('views', () => {
  const view = (storyId: number, partNumber: number, token?: string) =>
    post(apiPaths.view(storyId), { medium: 'WEB', partNumber }, token);

  it('counts a view once per reader, part and day; the roll-up updates reads and trending', async () => {
    // The demo readers' views aside: this test counts its own from nothing.
    await t.database.db.execute(sql`delete from story_views`);
    await engagementOf(t).rollup({ full: true });
    // Read from the repo, not the API: the first API read of trending comes after the roll-up.
    const trendingBefore = (await storiesRepo(t.database.db).trending(8)).items;
    // A free story that is not trending first yet.
    const target = all.find(
      (s) => !s.membersOnly && s.storyId !== trendingBefore[0]?.storyId && s.numberOfparts >= 2,
    )!;
    const readsOf = async () =>
      Number(
        (
          await rows<{ reads: number }>(sql`select reads from stories where id = ${target.storyId}`)
        )[0]!.reads,
      );
    const readsBefore = await readsOf();
    const me = await t.signup('Viewer');
    const first = await view(target.storyId, 1, me);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().object).toEqual({ counted: true });
    expect((await view(target.storyId, 1, me)).json().object).toEqual({ counted: false });
    // Another part and another reader count.
    expect((await view(target.storyId, 2, me)).json().object.counted).toBe(true);
    const other = await t.signup('Viewer');
    expect((await view(target.storyId, 1, other)).json().object.counted).toBe(true);

    const stored = await rows<{ day: string }>(
      sql`select to_char(day, 'YYYY-MM-DD') as day from story_views where story_id = ${target.storyId}`,
    );
    expect(stored).toHaveLength(3);
    expect(stored.every((r) => r.day === sriLankaDay(new Date()))).toBe(true);
    // The request never touched the story row.
    expect(await readsOf()).toBe(readsBefore);

    const engagement = engagementOf(t);
    const rolled = await engagement.rollup();
    expect(rolled.changed).toBeGreaterThan(0);
    expect(await readsOf()).toBe(readsBefore + 3);
    const days = await rows<{ views: number }>(
      sql`select views from story_view_days where story_id = ${target.storyId}`,
    );
    expect(days.map((d) => Number(d.views))).toEqual([3]);
    // Twice is the same as once.
    expect((await engagement.rollup()).changed).toBe(0);
    expect((await engagement.rollup({ full: true })).changed).toBe(0);
    expect(await readsOf()).toBe(readsBefore + 3);

    const trending = (await get(apiPaths.trending())).json().object.trending;
    expect(trending[0].storyId).toBe(target.storyId);
    expect(trending[0].reads).toBe(readsBefore + 3);
  });

  it('asks for at most one roll-up job a minute, and the worker runs them', async () => {
    const singletons = async () =>
      (
        await rows<{ n: number }>(
          sql`select count(*)::int as n from pgboss.job where name = ${ROLLUP_JOB} and singleton_on is not null`,
        )
      )[0]!.n;
    const before = await singletons();
    // Fresh services (no memory of a job sent) all land in the same 60-second slot.
    const fresh = () => engagementOf(t);
    await fresh().scheduleRollup();
    const one = await singletons();
    expect(one - before).toBeLessThanOrEqual(1);
    await fresh().scheduleRollup();
    await fresh().scheduleRollup();
    // Two at most: the clock may have crossed into the next slot between the calls.
    expect((await singletons()) - before).toBeLessThanOrEqual(2);
    expect(one).toBeGreaterThan(0);
    // The full roll-up sent at start-up has been run by the worker.
    let state = '';
    for (let i = 0; i < 40 && state !== 'completed'; i++) {
      const found = await rows<{ state: string }>(
        sql`select state from pgboss.job where name = ${ROLLUP_JOB} and data->>'full' = 'true'`,
      );
      state = found[0]?.state ?? '';
      if (state !== 'completed') await new Promise((r) => setTimeout(r, 250));
    }
    expect(state).toBe('completed');
  });

  it("asks for a story's ratings job about once a slot, however many processes rate it", async () => {
    // Two processes (two services), each counting what it asks the queue for.
    const processes = [0, 1].map(() => {
      const counted = { sends: 0 };
      const queue = {
        ...t.queue,
        send: (...args: Parameters<typeof t.queue.send>) => {
          counted.sends++;
          return t.queue.send(...args);
        },
      };
      return { service: engagementOf(t, queue), counted };
    });
    const storyId = 900_000 + Math.floor(Math.random() * 10_000);
    await processes[0]!.service.scheduleRatings(storyId);
    for (let i = 0; i < 6; i++) await processes[1]!.service.scheduleRatings(storyId);
    // The second one learns from its first refusal that the slot has its job; a slot may end
    // between the calls, so twice at most.
    expect(processes[0]!.counted.sends).toBe(1);
    expect(processes[1]!.counted.sends).toBeLessThanOrEqual(2);
    const [jobs] = await rows<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = ${RATINGS_JOB} and data->>'storyId' = ${String(storyId)}`,
    );
    expect(jobs!.n).toBeGreaterThanOrEqual(1);
    expect(jobs!.n).toBeLessThanOrEqual(2);
  });

  it('needs a token, a published part, and a subscription for a members-only part', async () => {
    const free = all.find((s) => !s.membersOnly)!;
    expect((await view(free.storyId, 1)).statusCode).toBe(401);
    expect((await view(free.storyId, free.numberOfparts + 1, reader)).statusCode).toBe(404);
    expect((await view(2_000_000, 1, reader)).statusCode).toBe(404);
    const locked = all.find((s) => s.membersOnly)!;
    const refused = await view(locked.storyId, 1, reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(ResultCode.subscriptionRequired);
    const member = await t.login(DEMO_MEMBER, DEMO_PASSWORD);
    expect((await view(locked.storyId, 1, member)).json().object.counted).toBe(true);
    const bad = await post(apiPaths.view(free.storyId), { medium: 'APP', partNumber: 1 }, reader);
    expect(bad.statusCode).toBe(400);
  });
});
