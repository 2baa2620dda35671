import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { campaignPaths as paths, type Contestant } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
let editor: string;
const DAY = 24 * 3600 * 1000;

const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });

const contestInput = (over: Record<string, unknown> = {}) => ({
  title: { en: 'Short story contest', si: 'කෙටි කතා තරඟය' },
  description: { en: 'Write a serial.', si: 'කතා මාලාවක් ලියන්න.' },
  startsAt: new Date(Date.now() - DAY).toISOString(),
  // Three days ahead: a reader whose account is made now is 3 days old at the end (< 7).
  endsAt: new Date(Date.now() + 3 * DAY).toISOString(),
  contest: { track: 'both', minEpisodes: 2, startWithin: false, rubricShare: 0 },
  ...over,
});
const createContest = async (over: Record<string, unknown> = {}) => {
  const res = await call('POST', paths.manage(), editor, { campaign: contestInput(over) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.campaignId as number;
};

/** An author with a story of `parts` published episodes. */
const authorWith = async (language: 'sinhala' | 'english', parts: number) => {
  const a = await t.newAuthor('Writer');
  const storyId = await t.createStory(a.token, { language });
  for (let i = 1; i <= parts; i++) await t.publishEpisode(a.token, storyId, `Part ${i}`);
  return { ...a, storyId };
};

const enter = (token: string, campaignId: number, storyId: number) =>
  call('POST', paths.entry(campaignId), token, { storyId });
const read = async (token: string, storyId: number, ...parts: number[]) => {
  for (const partNumber of parts) {
    const res = await call('POST', `/api/v1/stats/story/${storyId}/view/`, token, {
      medium: 'WEB',
      partNumber,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
};
const rate = async (token: string, storyId: number, rating: number) => {
  const res = await call('POST', `/api/v1/story/rate/${storyId}/`, token, {
    rating: String(rating),
  });
  expect(res.statusCode, res.body).toBe(200);
};
/** Makes an account 30 days old. */
const age = (token: string) =>
  t.rows(sql`update users set created_at = now() - interval '30 days' where id = ${userOf(token)}`);
const standings = async (id: number) => {
  const res = await call('GET', paths.stats(id), null);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object as { frozen: boolean; contestantList: Contestant[] };
};

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  editor = await t.signup('Editor');
  await t.rows(sql`update users set role = 'editor' where id = ${userOf(editor)}`);
}, 120_000);
afterAll(() => t.close());

describe('contest entries', () => {
  it('refuses entries that break a rule, naming the rule, and someone else’s story', async () => {
    const strict = await createContest({
      contest: { track: 'sinhala', minEpisodes: 3, startWithin: true, rubricShare: 0 },
    });
    const english = await authorWith('english', 3);
    const short = await authorWith('sinhala', 2);
    const old = await authorWith('sinhala', 3);
    await t.rows(
      sql`update stories set created_at = now() - interval '10 days' where id = ${old.storyId}`,
    );
    const fine = await authorWith('sinhala', 3);

    const cases: [string, number, number, RegExp][] = [
      [english.token, english.storyId, 400, /Rule: language track/],
      [short.token, short.storyId, 400, /Rule: minimum episodes.*at least 3.*has 2/],
      [old.token, old.storyId, 400, /Rule: the story must start within the contest/],
      [english.token, fine.storyId, 403, /only a story of your own/],
    ];
    for (const [token, storyId, status, message] of cases) {
      const res = await enter(token, strict, storyId);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect((await enter(fine.token, strict, fine.storyId)).statusCode).toBe(200);
    const twice = await enter(fine.token, strict, fine.storyId);
    expect(twice.statusCode).toBe(409);

    const closed = await createContest({
      startsAt: '2026-01-01T00:00:00.000Z',
      endsAt: '2026-02-01T00:00:00.000Z',
    });
    const late = await enter(fine.token, closed, fine.storyId);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/closed: it ran from 2026-01-01/);
    const n = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from campaign_entries where campaign_id in (${strict}, ${closed})`,
    );
    expect(n[0]!.n).toBe(1);
  });
});

describe('the fair ranking', () => {
  it('ranks by engaged readers and their ratings, as computed here, leaving out readers who must not count; frozen at the end; winners get a badge', async () => {
    const contest = await createContest();
    const s1 = await authorWith('sinhala', 4);
    const s2 = await authorWith('sinhala', 2);
    const e3 = await authorWith('english', 2);
    const other = await authorWith('english', 1);
    for (const a of [s1, s2, e3])
      expect((await enter(a.token, contest, a.storyId)).statusCode).toBe(200);

    /** What each reader is, and what they did: the test's own record. */
    interface Reader {
      token: string;
      old: boolean;
      readsElse: boolean;
      isAuthorOf?: number;
      reads: Record<number, number[]>;
      ratings: Record<number, number>;
    }
    const people: Reader[] = [];
    const reader = async (r: Omit<Reader, 'token'>, token?: string) => {
      const tok = token ?? (await t.signup('Reader'));
      if (r.old) await age(tok);
      if (r.readsElse) await read(tok, other.storyId, 1);
      for (const [story, parts] of Object.entries(r.reads))
        await read(tok, Number(story), ...parts);
      for (const [story, rating] of Object.entries(r.ratings))
        await rate(tok, Number(story), rating);
      people.push({ ...r, token: tok });
    };
    // Counted: old accounts that read another author's story and half or more of the entry.
    await reader({
      old: true,
      readsElse: true,
      reads: { [s1.storyId]: [1, 2], [s2.storyId]: [1] },
      ratings: { [s1.storyId]: 5, [s2.storyId]: 3 },
    });
    await reader({ old: true, readsElse: true, reads: { [s2.storyId]: [1, 2, 1] }, ratings: {} });
    await reader({
      old: true,
      readsElse: true,
      reads: { [e3.storyId]: [1] },
      ratings: { [e3.storyId]: 4 },
    });
    // Not counted: less than half read (its rating weighs nothing).
    await reader({
      old: true,
      readsElse: true,
      reads: { [s1.storyId]: [1] },
      ratings: { [s1.storyId]: 5 },
    });
    // Not counted: young accounts (friends made for the contest), however much they read and rate.
    for (let i = 0; i < 3; i++)
      await reader({
        old: false,
        readsElse: true,
        reads: { [s1.storyId]: [1, 2, 3, 4] },
        ratings: { [s1.storyId]: 5 },
      });
    // Not counted: old accounts that read nothing else.
    for (let i = 0; i < 2; i++)
      await reader({
        old: true,
        readsElse: false,
        reads: { [s1.storyId]: [1, 2, 3, 4] },
        ratings: { [s1.storyId]: 5 },
      });
    // Not counted: the author reading their own entry.
    await reader(
      {
        old: true,
        readsElse: true,
        isAuthorOf: s2.storyId,
        reads: { [s2.storyId]: [1, 2] },
        ratings: {},
      },
      s2.token,
    );

    const parts: Record<number, number> = { [s1.storyId]: 4, [s2.storyId]: 2, [e3.storyId]: 2 };
    const tracks: Record<number, 'sinhala' | 'english'> = {
      [s1.storyId]: 'sinhala',
      [s2.storyId]: 'sinhala',
      [e3.storyId]: 'english',
    };
    /** The ranking as the rules say, from the record above. */
    const expected = (rubricShare = 0, rubric: Record<number, number> = {}) => {
      const points = (story: number) => {
        const counted = people.filter(
          (p) =>
            p.old &&
            p.readsElse &&
            p.isAuthorOf !== story &&
            new Set(p.reads[story] ?? []).size * 2 >= parts[story]!,
        );
        return counted.length + counted.reduce((sum, p) => sum + (p.ratings[story] ?? 0) / 5, 0);
      };
      const out: {
        track: string;
        rank: number;
        storyId: number;
        score: number;
        engagedReaders?: number;
      }[] = [];
      for (const track of ['sinhala', 'english']) {
        const stories = Object.keys(tracks)
          .map(Number)
          .filter((s) => tracks[s] === track);
        const max = Math.max(...stories.map(points));
        const scored = stories
          .map((s) => ({
            storyId: s,
            score:
              Math.round(
                (((1 - rubricShare) * (100 * points(s))) / max + rubricShare * (rubric[s] ?? 0)) *
                  100,
              ) / 100,
          }))
          .sort((a, b) => b.score - a.score);
        scored.forEach((s, i) => out.push({ track, rank: i + 1, ...s }));
      }
      return out;
    };

    const live = await standings(contest);
    expect(live.frozen).toBe(false);
    const shape = (list: Contestant[]) =>
      list.map(({ track, rank, storyId, score }) => ({ track, rank, storyId, score }));
    expect(shape(live.contestantList)).toEqual(expected());
    // Raw reads would put s1 first; engaged readers put s2 first.
    expect(live.contestantList[0]).toMatchObject({ storyId: s2.storyId, engagedReaders: 2 });
    expect(live.contestantList.find((c) => c.storyId === s1.storyId)!.engagedReaders).toBe(1);

    // The editors' rubric, for the share they set.
    await call('POST', paths.manage(), editor, {
      campaign: contestInput({
        campaignId: contest,
        contest: { track: 'both', minEpisodes: 2, startWithin: false, rubricShare: 0.5 },
      }),
    });
    const judged = await call('POST', paths.judge(contest), editor, {
      rubric: [
        { storyId: s1.storyId, score: 100 },
        { storyId: s2.storyId, score: 10 },
      ],
    });
    expect(judged.statusCode, judged.body).toBe(200);
    const withRubric = await standings(contest);
    expect(shape(withRubric.contestantList)).toEqual(
      expected(0.5, { [s1.storyId]: 100, [s2.storyId]: 10 }),
    );
    expect(withRubric.contestantList[0]!.storyId).toBe(s1.storyId);

    // Winners wait for the end; a reader cannot judge.
    expect(
      (await call('POST', paths.judge(contest), editor, { winners: [s1.storyId] })).statusCode,
    ).toBe(409);
    expect(
      (await call('POST', paths.judge(contest), people[0]!.token, { winners: [] })).statusCode,
    ).toBe(403);

    // The end: the ranking freezes; later reads change nothing.
    await t.rows(
      sql`update campaigns set ends_at = now() - interval '1 second' where id = ${contest}`,
    );
    const ended = await standings(contest);
    expect(ended.frozen).toBe(true);
    await t.rows(sql`insert into story_views (story_id, user_id, part_number, day, created_at)
      select ${s2.storyId}, id, 1, current_date - 1, now() - interval '1 hour' from users
      where id = ${userOf(people[2]!.token)}`);
    expect((await standings(contest)).contestantList).toEqual(ended.contestantList);

    const win = await call('POST', paths.judge(contest), editor, {
      winners: [s1.storyId, e3.storyId],
    });
    expect(win.statusCode, win.body).toBe(200);
    const final = await standings(contest);
    expect(final.contestantList.find((c) => c.storyId === s1.storyId)!.winnerPlace).toBe(1);
    const badges = (await call('GET', paths.badges(s1.authorId), null)).json().object.badges;
    expect(badges).toEqual([
      { campaignId: contest, title: { en: 'Short story contest', si: 'කෙටි කතා තරඟය' }, place: 1 },
    ]);
  });
});
