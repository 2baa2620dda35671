import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { communityPaths, reviewPaths, type Post } from '@kathamala/domain';
import { createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { HELD_NEW_ACCOUNT, HELD_WORD } from './holds.ts';
import { queueItem, sender, waitFor } from './testing.ts';

let t: TestApp;
let editor: string;
let editor2: string;
let reader: string;

const send = sender(() => t);

/** A fresh account; `aged` makes it older than a day (no new-account hold, the wider pace). */
const account = async (name: string, opts: { aged?: boolean; role?: 'editor' } = {}) => {
  const token = await t.signup(name);
  if (opts.aged)
    await t.rows(
      sql`update users set created_at = now() - interval '30 days' where id = ${userOf(token)}`,
    );
  if (opts.role)
    await t.rows(sql`update users set role = ${opts.role} where id = ${userOf(token)}`);
  return token;
};

const post = async (token: string, text: string) => {
  const res = await send('POST', communityPaths.post(), token, { text });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.post as Post;
};
/** The post as `token` sees it, or null when it is not there for them. */
const seen = async (token: string | null, id: number) => {
  const res = await send('GET', communityPaths.postById(id), token);
  return res.statusCode === 200 ? (res.json().object.post as Post) : null;
};
const inFeed = async (id: number) => {
  const res = await send('GET', communityPaths.feed(), reader);
  return (res.json().object.list as Post[]).some((p) => p.postId === id);
};
const flag = (token: string, id: number, reason = 'It is abusive') =>
  send('PUT', reviewPaths.flagPost(), token, { post_id: id, reason });
const itemFor = (kind: string, id: number) => queueItem(send, editor, kind, id);

beforeAll(async () => {
  t = await createTestApp();
  editor = await account('Editor A', { aged: true, role: 'editor' });
  editor2 = await account('Editor B', { aged: true, role: 'editor' });
  reader = await account('Reader', { aged: true });
}, 120_000);
afterAll(() => t.close());

describe('new accounts are held', () => {
  it("the first 3 posts of an account younger than a day wait for review, 'waiting' for their writer; an editor's approval shows one", async () => {
    const fresh = await account('Newcomer');
    const held = [];
    for (const n of [1, 2, 3]) held.push(await post(fresh, `Hello everyone, post ${n}`));
    for (const p of held) {
      expect(p.status).toBe('pending');
      expect(p.statusReason).toBe(HELD_NEW_ACCOUNT);
      expect((await seen(fresh, p.postId))?.status).toBe('pending');
      expect(await seen(reader, p.postId)).toBeNull();
      expect(await inFeed(p.postId)).toBe(false);
      const item = await itemFor('post', p.postId);
      expect(item).toMatchObject({ heldReason: HELD_NEW_ACCOUNT, flags: [] });
      expect(item!.history.map((h) => h.action)).toEqual(['held']);
    }
    const fourth = await post(fresh, 'Post 4');
    expect(fourth.status).toBe('approved');

    const approved = await send('POST', reviewPaths.decidePost(), editor, {
      post_id: held[0]!.postId,
      decision: 'approve',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await seen(reader, held[0]!.postId))?.status).toBe('approved');
    expect(await inFeed(held[0]!.postId)).toBe(true);
    expect(await itemFor('post', held[0]!.postId)).toBeUndefined();

    // Nobody heard of a held post: once approved, the people it mentions do.
    const me = await send('GET', communityPaths.me(), reader);
    const readerName = me.json().object.username as string;
    expect(
      (
        await send('PUT', communityPaths.follow(), reader, {
          followed_id: userOf(fresh),
          following: true,
        })
      ).statusCode,
    ).toBe(200);
    const mentioning = held[1]!;
    const edited = await send('PUT', communityPaths.post(), fresh, {
      post_id: mentioning.postId,
      text: `Thank you @${readerName}`,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const mentioned = () =>
      t.rows(sql`select 1 from community_notifications
        where user_id = ${userOf(reader)} and kind = 'mention' and post_id = ${mentioning.postId}`);
    expect(await mentioned()).toHaveLength(0);
    expect(
      (
        await send('POST', reviewPaths.decidePost(), editor2, {
          post_id: mentioning.postId,
          decision: 'approve',
        })
      ).statusCode,
    ).toBe(200);
    expect(await waitFor(async () => (await mentioned()).length === 1)).toBe(true);

    const established = await account('Regular', { aged: true });
    expect((await post(established, 'My first post')).status).toBe('approved');
  });
});

describe('flags on posts', () => {
  it('a post 3 different people flag is hidden until an editor decides; a second flag by one person does not count', async () => {
    const writer = await account('Writer', { aged: true });
    const p = await post(writer, 'A post some people dislike');
    const [a, b, c] = await Promise.all(['F1', 'F2', 'F3'].map((n) => account(n, { aged: true })));

    const own = await flag(writer, p.postId);
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('You cannot flag your own post.');
    expect((await flag(a!, 999_999)).statusCode).toBe(404);

    expect((await flag(a!, p.postId)).json().object).toEqual({
      flagged: true,
      counted: true,
      hidden: false,
    });
    expect((await flag(a!, p.postId, 'Again')).json().object).toEqual({
      flagged: true,
      counted: false,
      hidden: false,
    });
    expect((await flag(b!, p.postId)).json().object.hidden).toBe(false);
    expect(await inFeed(p.postId)).toBe(true);
    expect((await flag(c!, p.postId)).json().object).toEqual({
      flagged: true,
      counted: true,
      hidden: true,
    });

    expect(await inFeed(p.postId)).toBe(false);
    expect(await seen(reader, p.postId)).toBeNull();
    expect(await seen(writer, p.postId)).not.toBeNull();
    const item = await itemFor('post', p.postId);
    expect(item!.hidden).toBe(true);
    expect(item!.flags).toHaveLength(3);
    expect(item!.history.map((h) => h.action)).toEqual(['flagged', 'flagged', 'flagged', 'hidden']);

    const ignored = await send('POST', reviewPaths.decidePost(), editor, {
      post_id: p.postId,
      decision: 'ignore',
    });
    expect(ignored.statusCode, ignored.body).toBe(200);
    expect(await inFeed(p.postId)).toBe(true);
  });

  it('three flags sent at once still hide the post (flags of one case take turns)', async () => {
    const writer = await account('Busy writer', { aged: true });
    const p = await post(writer, 'A post three people flag at the same moment');
    const flaggers = await Promise.all(['G1', 'G2', 'G3'].map((n) => account(n, { aged: true })));
    const answers = await Promise.all(flaggers.map((f) => flag(f, p.postId)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.some((a) => a.json().object.hidden)).toBe(true);
    expect(await seen(reader, p.postId)).toBeNull();
  });

  it('a rejected post disappears for everyone but its writer, who reads why and is notified; audited', async () => {
    const writer = await account('Rejected writer', { aged: true });
    const p = await post(writer, 'Buy cheap followers now');
    expect((await flag(reader, p.postId, 'Spam')).statusCode).toBe(200);
    const res = await send('POST', reviewPaths.decidePost(), editor, {
      post_id: p.postId,
      decision: 'reject',
      reason: 'Advertising is not allowed in the community.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await seen(reader, p.postId)).toBeNull();
    expect(await seen(null, p.postId)).toBeNull();
    expect(await seen(writer, p.postId)).toMatchObject({
      status: 'rejected',
      statusReason: 'Advertising is not allowed in the community.',
    });
    expect(
      await waitFor(
        async () =>
          (
            await t.rows(sql`select 1 from community_notifications
              where user_id = ${userOf(writer)} and kind = 'review' and post_id = ${p.postId}`)
          ).length === 1,
      ),
    ).toBe(true);
    const audit = await t.rows<{ actorId: number; detail: { decision: string } }>(sql`
      select actor_id as "actorId", detail from community_audit
      where action = 'review.decide' and target_kind = 'post' and target_id = ${p.postId}`);
    expect(audit).toMatchObject([{ actorId: userOf(editor), detail: { decision: 'reject' } }]);
  });

  it('two editors deciding on one post at once: exactly one 200 and one 409', async () => {
    const writer = await account('Raced writer', { aged: true });
    const p = await post(writer, 'A post two editors look at');
    await flag(reader, p.postId);
    const answers = await Promise.all([
      send('POST', reviewPaths.decidePost(), editor, { post_id: p.postId, decision: 'approve' }),
      send('POST', reviewPaths.decidePost(), editor2, { post_id: p.postId, decision: 'reject' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((a) => a.statusCode === 409)!;
    expect(lost.json().message).toMatch(/^Editor [AB] \d+ already decided on this post/);
  });

  it('a reader deciding gets 403', async () => {
    const res = await send('POST', reviewPaths.decidePost(), reader, {
      post_id: 1,
      decision: 'reject',
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('the kept word list holds posts and comments', () => {
  it('a listed Sinhala word written with a ZWJ, without, and in Singlish: each post held', async () => {
    const added = await send('POST', reviewPaths.words(), editor, { word: 'ද්‍රෝහියා' });
    expect(added.statusCode, added.body).toBe(200);
    const writer = await account('Word writer', { aged: true });
    const spellings = ['ඔයා ද්‍රෝහියෙක් නෙවෙයි, ද්‍රෝහියා', 'ඔයා ද්රෝහියා', 'oya drohiya kiyala'];
    expect(spellings[0]).toContain('\u200D');
    expect(spellings[1]).not.toContain('\u200D');
    for (const text of spellings) {
      const p = await post(writer, text);
      expect(p.status, text).toBe('pending');
      expect(p.statusReason).toBe(HELD_WORD.post);
      const item = await itemFor('post', p.postId);
      expect(item!.matchedWords).toEqual(['ද්‍රෝහියා']);
      expect(await seen(reader, p.postId)).toBeNull();
    }
    expect((await post(writer, 'ඔයා හොඳ යාළුවෙක්')).status).toBe('approved');

    const target = await post(writer, 'A post to comment on');
    const res = await send('POST', communityPaths.comment(), reader, {
      post_id: target.postId,
      comment: 'oyaa drohiyaa',
    });
    expect(res.statusCode, res.body).toBe(200);
    const comment = res.json().object.comment as { id: number; status: string };
    expect(comment.status).toBe('pending');
    expect(await itemFor('post_comment', comment.id)).toMatchObject({
      heldReason: HELD_WORD.comment,
    });
    const approved = await send('POST', reviewPaths.decidePostComment(), editor, {
      id: comment.id,
      decision: 'approve',
    });
    expect(approved.statusCode, approved.body).toBe(200);
  });
});

describe('rate limits on posts', () => {
  it('a new account past its hourly posts gets 429 with a sentence naming the wait', async () => {
    const fresh = await account('Hasty');
    let answer;
    for (let n = 1; n <= 6; n++) {
      answer = await send('POST', communityPaths.post(), fresh, { text: `Quick post ${n}` });
      if (answer.statusCode !== 200) break;
    }
    expect(answer!.statusCode).toBe(429);
    expect(answer!.json().message).toMatch(
      /^You are posting quickly\. Please wait \d+ minutes before posting again\.$/,
    );
  });

  it('a new account past its hourly comments gets 429 too', async () => {
    const writer = await account('Talked to', { aged: true });
    const target = await post(writer, 'Talk to me');
    const fresh = await account('Chatty');
    let answer;
    for (let n = 1; n <= 7; n++) {
      answer = await send('POST', communityPaths.comment(), fresh, {
        post_id: target.postId,
        comment: `Reply ${n}`,
      });
      if (answer.statusCode !== 200) break;
    }
    expect(answer!.statusCode).toBe(429);
    expect(answer!.json().message).toMatch(
      /^You are commenting quickly\. Please wait \d+ (seconds|minutes) before commenting again\.$/,
    );
  });
});
