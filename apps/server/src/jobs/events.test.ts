import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../test/helpers.ts';
import { DISPATCH_JOB, dispatchEvents, eventDispatch } from './events.ts';

let t: TestApp;
let story: { storyId: number; episodeId: number };

beforeAll(async () => {
  t = await createTestApp();
  const [first] = await t.rows<{ storyId: number; episodeId: number }>(sql`
    select s.id as "storyId", e.id as "episodeId" from stories s
      join episodes e on e.story_id = s.id and e.status = 'published' and not e.members_only
    where not s.members_only and (s.release_at is null or s.release_at <= now())
    order by s.id, e.part_number limit 1`);
  story = first!;
}, 120_000);
afterAll(() => t.close());

const jobsOf = async (name: string, key?: string) =>
  (
    await t.rows<{ n: number }>(sql`
      select count(*)::int as n from pgboss.job
      where name = ${name} ${key ? sql`and singleton_key = ${key}` : sql``}`)
  )[0]!.n;

const eventOf = async (commentId: number) =>
  (
    await t.rows<{ id: number; dispatchedAt: Date | null }>(sql`
      select id, dispatched_at as "dispatchedAt" from events
      where type = 'comment.posted' and (payload::json ->> 'commentId')::int = ${commentId}`)
  )[0]!;

const waitFor = async (check: () => Promise<boolean>, ms = 20_000) => {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

const comment = async (token: string, feedback: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: apiPaths.comment(),
    headers: bearer(token),
    payload: { ...story, feedback, platform: 'web' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.comment.commentId as number;
};

describe('events recorded with their change (the outbox)', () => {
  it("turns a comment's event into its notification job once, with dispatchers racing", async () => {
    const reader = await t.signup();
    const commentId = await comment(reader, 'Dispatched once');
    const { id } = await eventOf(commentId);
    // The app's own dispatcher is due in about 2 s; three more race it here.
    await Promise.all([0, 1, 2].map(() => dispatchEvents(t.database.db, t.queue)));
    expect((await eventOf(commentId)).dispatchedAt).not.toBeNull();
    expect(await waitFor(async () => (await jobsOf(DISPATCH_JOB)) > 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await jobsOf('notify.comment', `notify.comment:${id}`)).toBe(1);
    // Enqueued in bulk, but retried as every job is.
    const [job] = await t.rows<{ retryLimit: number }>(sql`
      select retry_limit as "retryLimit" from pgboss.job
      where singleton_key = ${`notify.comment:${id}`}`);
    expect(job!.retryLimit).toBe(5);
  });

  it('dispatches an event left without its jobs (a stop after its commit) at start-up', async () => {
    const reader = await t.signup();
    const commentId = await comment(reader, 'Orphaned');
    // As if the process had stopped before asking: the event is back to undispatched, and
    // its job never made.
    const { id } = await eventOf(commentId);
    await t.rows(sql`update events set dispatched_at = null where id = ${id}`);
    await t.rows(
      sql`delete from pgboss.job where name = 'notify.comment' and singleton_key = ${`notify.comment:${id}`}`,
    );
    // A server starting on the same database.
    await eventDispatch(t.database.db, t.queue);
    expect(await waitFor(async () => (await eventOf(commentId)).dispatchedAt !== null)).toBe(true);
    expect(await jobsOf('notify.comment', `notify.comment:${id}`)).toBe(1);
  });

  it('asks for one dispatch job for a burst of comments, not one each', async () => {
    // The real queue, counting what is sent through it.
    let asked = 0;
    const counting = {
      ...t.queue,
      send: (...args: Parameters<TestApp['queue']['send']>) => {
        asked++;
        return t.queue.send(...args);
      },
    };
    const dispatch = await eventDispatch(t.database.db, counting);
    expect(asked).toBe(1); // the start-up sweep
    const before = await jobsOf(DISPATCH_JOB);
    for (let i = 0; i < 20; i++) await dispatch.soon();
    expect(asked).toBe(2);
    expect((await jobsOf(DISPATCH_JOB)) - before).toBeLessThanOrEqual(1);
  });
});
