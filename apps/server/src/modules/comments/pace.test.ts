import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { storiesRepo } from '../stories/repo.ts';
import { storiesService } from '../stories/service.ts';
import { commentsService } from './service.ts';
import { POSTING_PACE } from './pace.ts';

let t: TestApp;
let part: { storyId: number; episodeId: number } | undefined;

beforeAll(async () => {
  t = await createTestApp();
  [part] = await t.rows<{ storyId: number; episodeId: number }>(sql`
    select s.id as "storyId", e.id as "episodeId"
    from stories s join episodes e on e.story_id = s.id and e.status = 'published'
    where not s.members_only and not e.members_only
      and (s.release_at is null or s.release_at <= now())
    order by s.id, e.part_number limit 1`);
}, 120_000);
afterAll(() => t.close());

const post = (token: string, feedback: string) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.comment(),
    headers: bearer(token),
    payload: { ...part!, feedback, platform: 'web' },
  });

const reply = (token: string, commentId: number, text: string) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.reply(),
    headers: bearer(token),
    payload: { commentId, reply: text, platform: 'web' },
  });

/** A reader whose account was made `days` ago. */
const readerSince = async (days: number) => {
  const token = await t.signup();
  await t.database.db.execute(
    sql`update users set created_at = now() - make_interval(days => ${days}) where id = ${userOf(token)}`,
  );
  return token;
};

/** As if `seconds` had passed for this account's bucket (its full-again time moves back). */
const later = (token: string, seconds: number) =>
  t.database.db.execute(sql`
    update rate_limit_hits set expires_at = expires_at - make_interval(secs => ${seconds})
    where key = ${`comment-pace:${userOf(token)}`}`);

const waitOf = (res: { json(): { message: string } }) =>
  Number(/Please wait (\d+) seconds?/.exec(res.json().message)?.[1]);

describe('the posting pace (a token bucket per account)', () => {
  const { established, young } = POSTING_PACE;

  it(`lets a conversation run: ${established.burst} posts at once, then one every ${3600 / established.perHour} s`, async () => {
    const reader = await readerSince(30);
    const first = await post(reader, 'What a chapter!');
    expect(first.statusCode, first.body).toBe(200);
    const commentId = first.json().object.comment.commentId as number;
    // Comments and replies share the bucket.
    for (let i = 1; i < established.burst; i++) {
      const res =
        i % 2 ? await reply(reader, commentId, `reply ${i}`) : await post(reader, `c ${i}`);
      expect(res.statusCode, `post ${i + 1}: ${res.body}`).toBe(200);
    }
    const over = await post(reader, 'one too many');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 6 });
    // The burst itself takes a second or two on a busy machine, which the bucket refills.
    expect(waitOf(over)).toBeLessThanOrEqual(3600 / established.perHour);
    expect(waitOf(over)).toBeGreaterThanOrEqual(3600 / established.perHour - 5);
    expect((await reply(reader, commentId, 'and a reply')).statusCode).toBe(429);

    // One interval later, one more post; not two.
    await later(reader, 3600 / established.perHour);
    expect((await post(reader, 'after a breath')).statusCode).toBe(200);
    expect((await post(reader, 'and at once again')).statusCode).toBe(429);
    // An hour on, the bucket is full again.
    await later(reader, 3600);
    for (let i = 0; i < established.burst; i++)
      expect((await post(reader, `an hour on ${i}`)).statusCode).toBe(200);
    expect((await post(reader, 'too many again')).statusCode).toBe(429);
  });

  it(`is tighter for an account younger than a day: ${young.burst} at once, then one a minute`, async () => {
    const reader = await readerSince(0);
    for (let i = 0; i < young.burst; i++)
      expect((await post(reader, `new here ${i}`)).statusCode).toBe(200);
    const over = await post(reader, 'one too many');
    expect(over.statusCode).toBe(429);
    expect(waitOf(over)).toBeLessThanOrEqual(3600 / young.perHour);
    expect(waitOf(over)).toBeGreaterThanOrEqual(3600 / young.perHour - 5);
    // The same account a day older fills its bucket at the established pace: sooner.
    await t.database.db.execute(
      sql`update users set created_at = now() - interval '25 hours' where id = ${userOf(reader)}`,
    );
    expect(waitOf(await post(reader, 'a day on'))).toBeLessThan(3600 / young.perHour);
    // Another account is not held back by this one.
    expect((await post(await readerSince(0), 'me neither')).statusCode).toBe(200);
  });

  it('holds for posts arriving at once', async () => {
    const reader = await readerSince(30);
    const answers = await Promise.all(
      Array.from({ length: established.burst + 4 }, (_, i) => post(reader, `burst ${i}`)),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(established.burst);
    expect(codes.filter((c) => c === 429)).toHaveLength(4);
  });

  it('holds across server instances: the bucket is in the database, not in a process', async () => {
    const reader = await readerSince(30);
    const viewer = { userId: userOf(reader) } as Viewer;
    // Two services on the one database, as two instances of the server would be. Their posts'
    // events wait for the app's dispatcher (its next ask or start-up sweep): not this test's.
    const instances = [0, 1].map(() => {
      const stories = storiesService(storiesRepo(t.database.db));
      return commentsService({
        db: t.database.db,
        events: { soon: async () => {} },
        story: stories.story,
        episode: stories.publishedEpisode,
        part: stories.publishedPart,
        subscribed: stories.subscribed,
      });
    });
    const results: string[] = [];
    for (let i = 0; i < established.burst + 2; i++)
      await instances[i % 2]!.post(viewer, { ...part!, feedback: `instance ${i % 2}: ${i}` }).then(
        () => results.push('ok'),
        (e: { status?: number }) => results.push(String(e.status)),
      );
    expect(results.filter((r) => r === 'ok')).toHaveLength(established.burst);
    expect(results.slice(established.burst)).toEqual(['429', '429']);
  });
});
