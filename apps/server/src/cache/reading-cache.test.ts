// A read of a known episode is served from memory, and every change a reader could notice is
// seen by the next request (issue 10: verified sessions, stories and episodes from memory with
// exact invalidation). Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, PRODUCT_APP_ID } from '@kathamala/domain';
import { bearer, createTestApp, engagementOf, userOf, type TestApp } from '../test/helpers.ts';

let t: TestApp;
let author: { token: string; authorId: number; userId: number };
let storyId: number;
let reader: string;

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  author = await t.newAuthor('Cache');
  storyId = await t.createStory(author.token);
  await t.publishEpisode(author.token, storyId, 'One');
  reader = await t.signup('Cached');
}, 120_000);
afterAll(() => t?.close());

const read = (token: string, n = 1, id = storyId) =>
  t.app.inject({ url: apiPaths.part(id, n), headers: bearer(token) });

const rate = (token: string, id: number, rating: string) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.rate(id),
    headers: bearer(token),
    payload: { rating },
  });

/** Writes as an admin or a job would, then waits for its notices (on PostgreSQL they travel). */
const write = async (statement: ReturnType<typeof sql>) => {
  await t.database.db.execute(statement);
  await t.cacheBus.sync();
};

/** Changes the database without its triggers: what the caches cannot hear about. */
const behindTheCachesBack = (statement: ReturnType<typeof sql>) =>
  t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });

describe('reading from memory', () => {
  it('serves a read episode, its story and the session from memory the second time', async () => {
    expect((await read(reader)).statusCode).toBe(200);
    // Change text, title and the session underneath without telling anyone.
    await behindTheCachesBack(
      sql`update episodes set content = '<p>Changed quietly.</p>' where story_id = ${storyId}`,
    );
    await behindTheCachesBack(sql`update stories set title = 'Quiet' where id = ${storyId}`);
    await behindTheCachesBack(
      sql`update sessions set revoked_at = now() where user_id = ${userOf(reader)}`,
    );
    const again = await read(reader);
    expect(again.statusCode).toBe(200);
    expect(again.json().object.part.content).toBe('<p>Words.</p>');
    expect(again.json().object.story.title).not.toBe('Quiet');
    // Put things back the way the triggers announce, and the next read sees them.
    await write(sql`update sessions set revoked_at = null where user_id = ${userOf(reader)}`);
    await write(sql`update stories set title = 'Loud' where id = ${storyId}`);
    await write(sql`update episodes set content = '<p>Words.</p>' where story_id = ${storyId}`);
    const fresh = await read(reader);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().object.story.title).toBe('Loud');
  });

  it("answers a reader's first read of another story from the rows read with their first", async () => {
    const other = await t.createStory(author.token);
    await t.publishEpisode(author.token, other, 'Another');
    const token = await t.signup('Opener');
    expect((await read(token)).statusCode).toBe(200);
    // A bookmark and an alert of the other story that no notice announces: the reader's rows
    // were read with their first story, so the other one is answered from them.
    await behindTheCachesBack(
      sql`insert into bookmarks (user_id, story_id) values (${userOf(token)}, ${other})`,
    );
    const first = (await read(token, 1, other)).json().object;
    expect(first.bookmarked).toBe(false);
    expect(first.userRating).toBeNull();
    // A change announced about the reader (an alert of the other story) is taken into those
    // rows: still nothing is read, so the unannounced bookmark stays unseen.
    await write(
      sql`insert into story_alerts (user_id, story_id) values (${userOf(token)}, ${other})`,
    );
    const after = (await read(token, 1, other)).json().object;
    expect(after.alertEnabled).toBe(true);
    expect(after.bookmarked).toBe(false);
  });
});

describe('a new reader', () => {
  it('is answered from memory from their first read: an account made here has no rows yet', async () => {
    const token = await t.signup('Newcomer');
    // A bookmark that no notice announces: the instance that made the account knows it has
    // none, and asks the database nothing of the reader's own.
    await behindTheCachesBack(
      sql`insert into bookmarks (user_id, story_id) values (${userOf(token)}, ${storyId})`,
    );
    expect((await read(token)).json().object.bookmarked).toBe(false);
    // A change announced about all of the reader (as a subscription's) reads their rows anew.
    await write(sql`select pg_notify('kathamala_cache', ${`viewer:${userOf(token)}`})`);
    expect((await read(token)).json().object.bookmarked).toBe(true);
  });
});

describe("a reader's own rating, bookmark or alert, from any instance", () => {
  it('is taken into the rows kept of them, without reading those rows again', async () => {
    const token = await t.signup('Patched');
    const id = userOf(token);
    expect((await read(token)).json().object.userRating).toBeNull();
    // An alert that no notice announces: were the reader's rows read again, reads would show it.
    await behindTheCachesBack(
      sql`insert into story_alerts (user_id, story_id) values (${id}, ${storyId})`,
    );
    // Written as another instance or a job would: only the notices tell this instance.
    await write(sql`insert into ratings (user_id, story_id, rating) values (${id}, ${storyId}, 4)`);
    expect((await read(token)).json().object).toMatchObject({ userRating: 4, alertEnabled: false });
    await write(sql`update ratings set rating = 2 where user_id = ${id} and story_id = ${storyId}`);
    expect((await read(token)).json().object.userRating).toBe(2);
    await write(sql`insert into bookmarks (user_id, story_id) values (${id}, ${storyId})`);
    expect((await read(token)).json().object).toMatchObject({ userRating: 2, bookmarked: true });
    await write(sql`delete from ratings where user_id = ${id} and story_id = ${storyId}`);
    await write(sql`delete from bookmarks where user_id = ${id} and story_id = ${storyId}`);
    expect((await read(token)).json().object).toMatchObject({
      userRating: null,
      bookmarked: false,
      alertEnabled: false,
    });
  });
});

describe('a reader rating as they read', () => {
  it('keeps their state of their other stories in memory', async () => {
    const other = await t.createStory(author.token);
    await t.publishEpisode(author.token, other, 'Other');
    const token = await t.signup('Both');
    expect((await read(token)).json().object.bookmarked).toBe(false);
    expect((await read(token, 1, other)).statusCode).toBe(200);
    // A bookmark that no notice announces: while the reader's state of that story is kept,
    // reads do not see it.
    await behindTheCachesBack(
      sql`insert into bookmarks (user_id, story_id) values (${userOf(token)}, ${storyId})`,
    );
    const rated = await rate(token, other, '5');
    expect(rated.statusCode, rated.body).toBe(200);
    expect((await read(token, 1, other)).json().object.userRating).toBe(5);
    // The rating dropped the rated story's state only.
    expect((await read(token)).json().object.bookmarked).toBe(false);
  });
});

describe('the next request sees', () => {
  it('a logout', async () => {
    const token = await t.signup('Leaving');
    expect((await read(token)).statusCode).toBe(200);
    const out = await t.app.inject({
      url: apiPaths.logout(),
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(200);
    expect((await read(token)).statusCode).toBe(401);
  });

  it('a session revoked by anyone (another instance, an admin)', async () => {
    const token = await t.signup('Revoked');
    expect((await read(token)).statusCode).toBe(200);
    await write(sql`update sessions set revoked_at = now() where user_id = ${userOf(token)}`);
    expect((await read(token)).statusCode).toBe(401);
  });

  it('a new episode, and an edited one', async () => {
    const id = await t.createStory(author.token);
    const first = await t.publishEpisode(author.token, id, 'First');
    expect((await read(reader, 1, id)).json().object.numberOfparts).toBe(1);
    expect((await read(reader, 2, id)).statusCode).toBe(404);
    await t.publishEpisode(author.token, id, 'Second');
    const second = await read(reader, 2, id);
    expect(second.statusCode).toBe(200);
    expect(second.json().object.part.title).toBe('Second');
    expect(second.json().object.numberOfparts).toBe(2);
    const edit = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/publish/episode/webapp',
      headers: bearer(author.token),
      payload: {
        episode: {
          storyId: id,
          episodeId: first,
          title: 'First, revised',
          content: '<p>New words.</p>',
          status: 'published',
        },
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const revised = (await read(reader, 1, id)).json().object.part;
    expect(revised.title).toBe('First, revised');
    expect(revised.content).toContain('New words.');
  });

  it("the reader's own rating and bookmark", async () => {
    const token = await t.signup('Rater');
    expect((await read(token)).json().object.userRating).toBeNull();
    const rated = await rate(token, storyId, '4');
    expect(rated.statusCode, rated.body).toBe(200);
    const after = (await read(token)).json().object;
    expect(after.userRating).toBe(4);
    // The story's count follows in its ratings job (run here as the worker would): then too.
    await engagementOf(t).refreshRating(storyId);
    await t.cacheBus.sync();
    expect((await read(token)).json().object.story.ratingCount).toBe(1);
    // Someone else's rating changes the story, not this reader's own.
    expect((await read(reader)).json().object.userRating).toBeNull();
    expect((await read(token)).json().object.bookmarked).toBe(false);
    const marked = await t.app.inject({
      url: apiPaths.bookmark(storyId, 1),
      headers: bearer(token),
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect((await read(token)).json().object.bookmarked).toBe(true);
  });

  it('a membership that ends (UNREG), on a members-only story', async () => {
    const paid = await t.createStory(author.token, { membersOnly: true });
    await t.publishEpisode(author.token, paid, 'Paid');
    const token = await t.signup('Member');
    const userId = userOf(token);
    expect((await read(token, 1, paid)).statusCode).toBe(403);
    const [app] = await t.rows<{ appId: string }>(
      sql`select coalesce(a.app_id, ${PRODUCT_APP_ID}) as "appId" from authors a where a.id = ${author.authorId}`,
    );
    await write(sql`
      insert into subscriptions (user_id, app_id, mobile, status, started_at, state_at)
      values (${userId}, ${app!.appId}, '94771234567', 'active', now(), now())`);
    expect((await read(token, 1, paid)).statusCode).toBe(200);
    await write(
      sql`update subscriptions set status = 'ended', ended_at = now() where user_id = ${userId}`,
    );
    expect((await read(token, 1, paid)).statusCode).toBe(403);
  });
});
