import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { apiPaths, graphemes } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import type { Db } from '../../db/client.ts';
import { recordEvent } from '../../jobs/events.ts';
import {
  notificationsService,
  NOTIFY_EPISODE_JOB,
  type CommentJob,
  type EpisodeJob,
  type NotificationsService,
} from './service.ts';

let t: TestApp;
/** The same service the app runs, to call the job handlers directly (and twice). */
let jobs: NotificationsService;
beforeAll(async () => {
  t = await createTestApp({ JOB_POLL_SECONDS: '1' });
  jobs = notificationsService({
    db: t.database.db,
    queue: t.queue,
    push: { publicKey: 'unused', send: async () => 'sent' },
    allowHttpPush: true,
  });
});
afterAll(() => t.close());

const rows = <T>(query: SQL) => t.rows<T>(query);

const createStory = (token: string, over: Record<string, unknown> = {}) =>
  t.createStory(token, over);

/** Publishes an episode through the API and answers its job as the event started it. */
async function publish(token: string, storyId: number, title = 'The Return') {
  const episodeId = await t.publishEpisode(token, storyId, title);
  const [event] = await rows<{ id: number; payload: string }>(
    sql`select id, payload from events where type = 'episode.published'
      and (payload::jsonb ->> 'episodeId')::int = ${episodeId}`,
  );
  return { eventId: event!.id, ...JSON.parse(event!.payload) } as EpisodeJob;
}

const follow = async (token: string, userId: number) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: apiPaths.follow(),
    headers: bearer(token),
    payload: { followed_id: userId },
  });
  expect(res.json().object.following).toBe(true);
};

/** Bookmarks are another helper's calls; the row is what the job reads. */
const bookmark = (token: string, storyId: number) =>
  t.database.db.execute(
    sql`insert into bookmarks (user_id, story_id) values (${userOf(token)}, ${storyId})`,
  );

interface Row {
  userId: number;
  title: string;
  description: string;
  type: string;
  episode: number;
}
const notificationsOf = (storyId: number) =>
  rows<Row>(sql`
    select user_id as "userId", title, description, type, episode from notifications
    where story_id = ${storyId} order by id`);

/** The jobs of this name for an event, as pg-boss keeps them. */
const jobStates = (name: string, eventId: number) =>
  rows<{ state: string; startAfter: Date | string }>(sql`
    select state, start_after as "startAfter" from pgboss.job
    where name = ${name} and (data ->> 'eventId')::int = ${eventId}`);

const waitFor = async (check: () => Promise<boolean>, ms = 20_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
};

/** Waits until every job of this name for the event has finished. */
const settled = (name: string, eventId: number) =>
  waitFor(async () => {
    const states = await jobStates(name, eventId);
    return states.length > 0 && states.every((s) => s.state === 'completed');
  });

const list = (token: string) =>
  t.app.inject({ url: apiPaths.notifications(), headers: bearer(token) });
const unread = async (token: string) =>
  (await t.app.inject({ url: apiPaths.unreadNotifications(), headers: bearer(token) })).json()
    .object.unread as number;

describe('notifications for episodes', () => {
  it('first episode: NEW STORY to followers and bookmarkers, not the author, once', async () => {
    const author = await t.newAuthor('Notify Writer');
    const fan = await t.signup('Fan');
    const saver = await t.signup('Saver');
    const both = await t.signup('Both');
    const stranger = await t.signup('Stranger');
    await follow(fan, author.userId);
    await follow(both, author.userId);
    const storyId = await createStory(author.token, { title: 'The  Lantern\nHouse' });
    await bookmark(saver, storyId);
    await bookmark(both, storyId);
    // The author keeping their own story must not hear of it.
    await bookmark(author.token, storyId);

    const job = await publish(author.token, storyId);
    expect(job.firstEpisode).toBe(true);
    // The handler twice (a rerun after a crash), and the queue's own run of the same job.
    await jobs.notifyEpisode(job);
    await jobs.notifyEpisode(job);
    expect(await settled(NOTIFY_EPISODE_JOB, job.eventId)).toBe(true);

    const made = await notificationsOf(storyId);
    expect(made.map((n) => n.userId).sort()).toEqual(
      [userOf(fan), userOf(saver), userOf(both)].sort(),
    );
    for (const n of made)
      expect(n).toMatchObject({
        title: 'NEW STORY',
        type: 'story',
        episode: 1,
        description: expect.stringMatching(/^The Lantern House by Notify Writer/),
      });
    expect(made.some((n) => n.userId === userOf(stranger) || n.userId === author.userId)).toBe(
      false,
    );

    // Sent again by hand (a duplicate job): still nothing new.
    await t.queue.send(NOTIFY_EPISODE_JOB, job);
    expect(await settled(NOTIFY_EPISODE_JOB, job.eventId)).toBe(true);
    expect(await notificationsOf(storyId)).toHaveLength(3);
  });

  it('later episode: NEW EPISODE to bookmarkers and followers, exactly once each', async () => {
    const author = await t.newAuthor('Notify Writer');
    const fan = await t.signup('Fan');
    const saver = await t.signup('Saver');
    const storyId = await createStory(author.token, { title: 'Rain' });
    const opening = await publish(author.token, storyId, 'Opening');
    // Readers the first job could still count would get NEW STORY: it finishes first.
    expect(await settled(NOTIFY_EPISODE_JOB, opening.eventId)).toBe(true);
    await follow(fan, author.userId);
    await bookmark(saver, storyId);

    const job = await publish(author.token, storyId, 'The   Flood');
    expect(job.firstEpisode).toBe(false);
    for (let i = 0; i < 3; i++) await jobs.notifyEpisode(job);
    expect(await settled(NOTIFY_EPISODE_JOB, job.eventId)).toBe(true);

    const made = await notificationsOf(storyId);
    expect(made).toHaveLength(2);
    expect(made.map((n) => n.userId).sort()).toEqual([userOf(fan), userOf(saver)].sort());
    for (const n of made)
      expect(n).toMatchObject({
        title: 'NEW EPISODE',
        type: 'story',
        episode: 2,
        description: 'Rain, episode 2: The Flood',
      });
  });

  it('a story released later notifies only at its release', async () => {
    const author = await t.newAuthor('Notify Writer');
    const fan = await t.signup('Fan');
    await follow(fan, author.userId);
    const releaseAt = new Date(Date.now() + 3 * 86_400_000);
    const storyId = await createStory(author.token, { releaseDate: releaseAt.toISOString() });
    const job = await publish(author.token, storyId);

    const outcome = await jobs.notifyEpisode(job);
    expect(outcome).toHaveProperty('deferTo');
    expect(await notificationsOf(storyId)).toHaveLength(0);
    // The queue's run defers too: a job waits to look again (within the hour, at the latest
    // at the release), and nothing is made meanwhile.
    await waitFor(async () =>
      (await jobStates(NOTIFY_EPISODE_JOB, job.eventId)).some(
        (s) => s.state === 'created' && new Date(s.startAfter).getTime() > Date.now() + 60_000,
      ),
    );
    const waiting = (await jobStates(NOTIFY_EPISODE_JOB, job.eventId)).filter(
      (s) => s.state === 'created',
    );
    expect(waiting.length).toBeGreaterThan(0);
    for (const w of waiting)
      expect(new Date(w.startAfter).getTime()).toBeLessThanOrEqual(Date.now() + 3600_000 + 5_000);
    expect(await notificationsOf(storyId)).toHaveLength(0);

    // The release comes (the date moved to the past stands in for waiting three days).
    await t.database.db.execute(
      sql`update stories set release_at = now() - interval '1 minute' where id = ${storyId}`,
    );
    expect(await jobs.notifyEpisode(job)).toEqual({ notified: [] });
    await jobs.notifyEpisode(job);
    const made = await notificationsOf(storyId);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ userId: userOf(fan), title: 'NEW STORY' });
  });

  it('an episode withdrawn before the job runs notifies nobody', async () => {
    const author = await t.newAuthor('Notify Writer');
    const fan = await t.signup('Fan');
    const storyId = await createStory(author.token);
    const job = await publish(author.token, storyId);
    expect(await settled(NOTIFY_EPISODE_JOB, job.eventId)).toBe(true);
    // A late rerun of the job finds a follower now, but the episode withdrawn.
    await follow(fan, author.userId);
    await t.database.db.execute(
      sql`update episodes set status = 'draft' where id = ${job.episodeId}`,
    );
    expect(await jobs.notifyEpisode(job)).toEqual({ notified: [] });
    expect(await notificationsOf(storyId)).toHaveLength(0);
  });
});

/** Writes a comment with its mentions and its event the way the comments module does. */
async function comment(
  storyId: number,
  episodeId: number,
  writer: string,
  body: string,
  opts: { parentId?: number; mentions?: number[]; removed?: boolean } = {},
): Promise<CommentJob> {
  return t.database.db.transaction(async (t2) => {
    const tx = t2 as unknown as Db;
    const [row] = (
      (await tx.execute(sql`
      insert into comments (story_id, episode_id, part_number, user_id, parent_id, body)
      values (${storyId}, ${episodeId}, 1, ${userOf(writer)}, ${opts.parentId ?? null}, ${body})
      returning id`)) as unknown as { rows: { id: number }[] }
    ).rows;
    const commentId = row!.id;
    for (const userId of opts.mentions ?? [])
      await tx.execute(
        sql`insert into comment_mentions (comment_id, user_id) values (${commentId}, ${userId})`,
      );
    const payload = {
      commentId,
      storyId,
      partNumber: 1,
      parentId: opts.parentId ?? null,
      userId: userOf(writer),
    };
    const eventId = await recordEvent(tx, t.queue, { type: 'comment.posted', payload });
    // Removed before any job could run: the job finds nothing to point at.
    if (opts.removed) await tx.execute(sql`delete from comments where id = ${commentId}`);
    return { eventId, ...payload };
  });
}

describe('notifications for comments', () => {
  it('a comment tells the author; a reply tells the parent’s writer; mentions say who', async () => {
    const author = await t.newAuthor('Notify Writer');
    const storyId = await createStory(author.token, { title: 'Monsoon' });
    const { episodeId } = await publish(author.token, storyId);
    const ann = await t.signup('Ann');
    const ben = await t.signup('Ben');
    const cat = await t.signup('Cat');
    const annName = (
      await rows<{ username: string }>(sql`select username from users where id = ${userOf(ann)}`)
    )[0]!.username;

    // Ann comments (the author hears), mentioning Cat and herself (ignored).
    const top = await comment(storyId, episodeId, ann, '<img src=x onerror=alert(1)>', {
      mentions: [userOf(cat), userOf(ann)],
    });
    await jobs.notifyComment(top);
    await jobs.notifyComment(top);
    // Ben replies to Ann and also mentions her and the author: one notification each.
    const reply = await comment(storyId, episodeId, ben, 'Agreed,\n\n   @Ann', {
      parentId: top.commentId,
      mentions: [userOf(ann), author.userId],
    });
    await jobs.notifyComment(reply);
    expect(await settled('notify.comment', top.eventId)).toBe(true);
    expect(await settled('notify.comment', reply.eventId)).toBe(true);
    await jobs.notifyComment(reply);

    const made = (await notificationsOf(storyId)).filter((n) => n.type === 'comment');
    const of = (token: string) => made.filter((n) => n.userId === userOf(token));
    expect(made.every((n) => n.title === 'NEW COMMENT' && n.episode === 1)).toBe(true);
    expect(of(author.token).map((n) => n.description)).toEqual([
      `${annName} commented on Monsoon: <img src=x onerror=alert(1)>`,
      expect.stringMatching(/^Ben \d+ mentioned you: Agreed, @Ann$/),
    ]);
    expect(of(cat).map((n) => n.description)).toEqual([
      `${annName} mentioned you: <img src=x onerror=alert(1)>`,
    ]);
    expect(of(ann).map((n) => n.description)).toEqual([
      expect.stringMatching(/^Ben \d+ replied: Agreed, @Ann$/),
    ]);
    expect(of(ben)).toHaveLength(0);
    expect(made).toHaveLength(4);
  });

  it('the author commenting on their own story and a removed comment notify nobody', async () => {
    const author = await t.newAuthor('Notify Writer');
    const storyId = await createStory(author.token);
    const { episodeId } = await publish(author.token, storyId);
    const own = await comment(storyId, episodeId, author.token, 'Thank you for reading');
    await jobs.notifyComment(own);
    const gone = await comment(storyId, episodeId, await t.signup(), 'Soon removed', {
      removed: true,
    });
    await jobs.notifyComment(gone);
    expect(await settled('notify.comment', own.eventId)).toBe(true);
    expect(await settled('notify.comment', gone.eventId)).toBe(true);
    expect((await notificationsOf(storyId)).filter((n) => n.type === 'comment')).toHaveLength(0);
  });

  it('long text is cut at a letter’s edge, never inside a Sinhala cluster', async () => {
    const author = await t.newAuthor('Notify Writer');
    const storyId = await createStory(author.token, { title: 'ශ්‍රී ලංකා' });
    const { episodeId } = await publish(author.token, storyId);
    const reader = await t.signup();
    const c = await comment(storyId, episodeId, reader, 'ශ්‍රී '.repeat(150));
    await jobs.notifyComment(c);
    const [n] = (await notificationsOf(storyId)).filter((x) => x.type === 'comment');
    expect(n!.description.endsWith('…')).toBe(true);
    const parts = graphemes(n!.description);
    expect(parts.length).toBeLessThanOrEqual(200);
    // What is kept is whole letters of the full text, in order.
    const name = (
      await rows<{ username: string }>(sql`select username from users where id = ${userOf(reader)}`)
    )[0]!.username;
    const full = graphemes(`${name} commented on ශ්‍රී ලංකා: ${'ශ්‍රී '.repeat(150).trim()}`);
    expect(parts.slice(0, -1)).toEqual(full.slice(0, parts.length - 1));
    expect(n!.description).toBe(n!.description.normalize('NFC'));
  });
});

describe('the notification list', () => {
  it('lists newest first with read state, marks read, and shows nobody else’s', async () => {
    const author = await t.newAuthor('Notify Writer');
    const fan = await t.signup('Fan');
    const other = await t.signup('Other');
    await follow(fan, author.userId);
    const storyId = await createStory(author.token, { title: 'Tides' });
    await jobs.notifyEpisode(await publish(author.token, storyId, 'One'));
    await jobs.notifyEpisode(await publish(author.token, storyId, 'Two'));

    expect(await unread(fan)).toBe(2);
    let res = await list(fan);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    let body = res.json().object;
    expect(body.unread).toBe(2);
    expect(body.notifications).toHaveLength(2);
    expect(body.notifications[0]).toMatchObject({
      type: 'story',
      storyId,
      episode: 2,
      title: 'NEW EPISODE',
      description: 'Tides, episode 2: Two',
      read: false,
      createdDate: expect.stringMatching(/^\d\d-\d\d-\d\d \d\d:\d\d:\d\d [ap]m$/),
    });
    expect(body.notifications[1]).toMatchObject({ episode: 1, title: 'NEW STORY', read: false });

    expect(await unread(fan)).toBe(0);
    body = (await list(fan)).json().object;
    expect(body.unread).toBe(0);
    expect(body.notifications.map((n: { read: boolean }) => n.read)).toEqual([true, true]);

    // Another reader sees none of them, and reading theirs marks nothing of the fan's.
    res = await list(other);
    expect(res.json().object).toEqual({ notifications: [], unread: 0 });
    expect((await t.app.inject({ url: apiPaths.notifications() })).statusCode).toBe(401);
    expect((await t.app.inject({ url: apiPaths.unreadNotifications() })).statusCode).toBe(401);
  });

  it('a reply through the comments API reaches the drawer by the queue', async () => {
    const author = await t.newAuthor('Notify Writer');
    const storyId = await createStory(author.token, { title: 'Harbour' });
    const { episodeId } = await publish(author.token, storyId);
    const ann = await t.signup('Ann');
    const ben = await t.signup('Ben');
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/story/comment/',
      headers: bearer(ann),
      payload: { storyId, episodeId, feedback: 'What a start', platform: 'web' },
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const replied = await t.app.inject({
      method: 'POST',
      url: '/api/v1/story/comment/reply/',
      headers: bearer(ben),
      payload: {
        commentId: posted.json().object.comment.commentId,
        reply: 'Yes!',
        platform: 'web',
      },
    });
    expect(replied.statusCode, replied.body).toBe(200);

    expect(await waitFor(async () => (await unread(ann)) === 1)).toBe(true);
    const [n] = (await list(ann)).json().object.notifications;
    expect(n).toMatchObject({
      type: 'comment',
      title: 'NEW COMMENT',
      storyId,
      episode: 1,
      description: expect.stringMatching(/^Ben \d+ replied: Yes!$/),
    });
    expect(await waitFor(async () => (await unread(author.token)) === 1)).toBe(true);
  });
});
