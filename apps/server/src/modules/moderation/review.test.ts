import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, reviewPaths, type Comment } from '@kathamala/domain';
import { createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { HELD_WORD, holdFor } from './holds.ts';
import { queueItem, sender, waitFor, type Method } from './testing.ts';

let t: TestApp;
let editor: string;
let editor2: string;
let reader: string;

const send = sender(() => t);

/** A fresh account made an editor (the role is read from the database on each call). */
const newEditor = async (name = 'Editor') => {
  const token = await t.signup(name);
  await t.rows(sql`update users set role = 'editor' where id = ${userOf(token)}`);
  return token;
};

/** Ages an account past a day, as an established one. */
const age = (token: string) =>
  t.rows(sql`update users set created_at = now() - interval '30 days' where id = ${userOf(token)}`);

const itemFor = (kind: string, id: number) => queueItem(send, editor, kind, id);

beforeAll(async () => {
  t = await createTestApp();
  editor = await newEditor('Editor A');
  editor2 = await newEditor('Editor B');
  reader = await t.signup('Reader');
}, 120_000);
afterAll(() => t.close());

describe('who may use the editors calls', () => {
  const calls: [Method, string, object?][] = [
    ['GET', reviewPaths.queue()],
    ['POST', reviewPaths.decidePost(), { post_id: 1, decision: 'approve' }],
    ['PUT', reviewPaths.decideProfile(), { id: 1, decision: 'approve' }],
    ['POST', reviewPaths.decideComment(), { commentId: 1, decision: 'approve' }],
    ['POST', reviewPaths.decidePostComment(), { id: 1, decision: 'approve' }],
    ['GET', reviewPaths.words()],
    ['POST', reviewPaths.words(), { word: 'anything' }],
    ['DELETE', reviewPaths.word(1)],
  ];

  it('a reader gets 403 with a sentence, a visitor 401', async () => {
    for (const [method, url, body] of calls) {
      const asReader = await send(method, url, reader, body);
      expect(asReader.statusCode, `${method} ${url}`).toBe(403);
      expect(asReader.json().message).toMatch(/Only editors/);
      const asVisitor = await send(method, url, null, body);
      expect(asVisitor.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('flags need a login', async () => {
    expect(
      (await send('PUT', reviewPaths.flagPost(), null, { post_id: 1, reason: 'x' })).statusCode,
    ).toBe(401);
    expect(
      (await send('POST', reviewPaths.flagProfile(), null, { id: 1, reason: 'x' })).statusCode,
    ).toBe(401);
  });
});

describe('the kept word list', () => {
  it('editors add, list and remove words, each change in the audit log; a second spelling of a listed word is 409', async () => {
    const added = await send('POST', reviewPaths.words(), editor, { word: 'ගෙදර' });
    expect(added.statusCode, added.body).toBe(200);
    const word = added.json().object.word as { id: number; word: string };
    expect(word.word).toBe('ගෙදර');

    const again = await send('POST', reviewPaths.words(), editor2, { word: 'gedhara' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('“gedhara” is already on the list, written as “ගෙදර”.');

    const blank = await send('POST', reviewPaths.words(), editor, { word: ' !! ' });
    expect(blank.statusCode).toBe(400);

    const list = await send('GET', reviewPaths.words(), editor);
    expect(list.json().object.list.map((w: { word: string }) => w.word)).toContain('ගෙදර');

    const removed = await send('DELETE', reviewPaths.word(word.id), editor2);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await send('DELETE', reviewPaths.word(word.id), editor2)).statusCode).toBe(404);

    const audit = await t.rows<{ action: string; actorId: number }>(sql`
      select action, actor_id as "actorId" from community_audit
      where target_kind = 'review_word' and target_id = ${word.id} order by id`);
    expect(audit).toEqual([
      { action: 'review.word.add', actorId: userOf(editor) },
      { action: 'review.word.remove', actorId: userOf(editor2) },
    ]);
  });
});

describe('flags on profiles', () => {
  it('a flag puts the profile in the queue with its reason and history; one flag per person; not oneself', async () => {
    const target = await t.signup('Flagged');
    const id = userOf(target);
    const flagger = await t.signup('Flagger');

    const own = await send('POST', reviewPaths.flagProfile(), target, { id, reason: 'me' });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('You cannot flag your own profile.');

    const first = await send('POST', reviewPaths.flagProfile(), flagger, {
      id,
      reason: 'Spam links in the bio',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().object).toEqual({ flagged: true, counted: true, hidden: false });
    const second = await send('POST', reviewPaths.flagProfile(), flagger, { id, reason: 'Again' });
    expect(second.json().object.counted).toBe(false);

    const item = await itemFor('profile', id);
    expect(item).toBeDefined();
    expect(item!.flags.map((f) => [f.by.userId, f.reason])).toEqual([
      [userOf(flagger), 'Spam links in the bio'],
    ]);
    expect(item!.history.map((h) => h.action)).toEqual(['flagged']);
    expect(item!.target.author.userId).toBe(id);

    const blank = await send('POST', reviewPaths.flagProfile(), flagger, { id, reason: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Say why you are flagging this profile.');
  });

  it('a rejected profile loses its bio and picture, and the decision is audited', async () => {
    const target = await t.signup('Bio');
    const id = userOf(target);
    await t.rows(sql`insert into community_profiles (user_id, bio, avatar_version)
      values (${id}, 'Buy followers at example.com', 'abc123')`);
    await send('POST', reviewPaths.flagProfile(), reader, { id, reason: 'Selling followers' });

    const res = await send('PUT', reviewPaths.decideProfile(), editor, {
      id,
      decision: 'reject',
      reason: 'Advertising is not allowed.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object).toMatchObject({ kind: 'profile', id, decision: 'reject' });
    const [profile] = await t.rows<{ bio: string; avatar: string | null }>(
      sql`select bio, avatar_version as avatar from community_profiles where user_id = ${id}`,
    );
    expect(profile).toEqual({ bio: '', avatar: null });
    expect(await itemFor('profile', id)).toBeUndefined();
    const audit = await t.rows<{
      action: string;
      reason: string;
      detail: { decision: string };
    }>(sql`
      select action, reason, detail from community_audit
      where target_kind = 'profile' and target_id = ${id}`);
    expect(audit).toMatchObject([
      {
        action: 'review.decide',
        reason: 'Advertising is not allowed.',
        detail: { decision: 'reject' },
      },
    ]);
  });

  it('two editors deciding at once: one 200, the other 409 saying who decided', async () => {
    const target = await t.signup('Raced');
    const id = userOf(target);
    await send('POST', reviewPaths.flagProfile(), reader, { id, reason: 'Rude name' });
    const [a, b] = await Promise.all([
      send('PUT', reviewPaths.decideProfile(), editor, { id, decision: 'ignore' }),
      send('PUT', reviewPaths.decideProfile(), editor2, { id, decision: 'reject' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a];
    const winner = won.json().object.decidedBy.username as string;
    expect(lost.json().message).toMatch(
      new RegExp(
        `^${winner} already decided on this profile \\((ignored|rejected)\\) at \\d\\d:\\d\\d UTC\\.$`,
      ),
    );
    const decided = await t.rows<{ n: number }>(sql`
      select count(*)::int as n from community_audit where target_kind = 'profile' and target_id = ${id}`);
    expect(decided[0]!.n).toBe(1);
  });

  it('deciding on what is not in the queue is 404 with a sentence', async () => {
    const res = await send('PUT', reviewPaths.decideProfile(), editor, {
      id: userOf(reader),
      decision: 'approve',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('That profile is not waiting for review.');
  });
});

describe('rate limits', () => {
  it('a new account flags at most 3 at once, then 429 naming the wait; an established one more', async () => {
    const young = await t.signup('Young');
    const targets = await Promise.all([1, 2, 3, 4].map(() => t.signup('Target')));
    for (const target of targets.slice(0, 3)) {
      const ok = await send('POST', reviewPaths.flagProfile(), young, {
        id: userOf(target),
        reason: 'Spam',
      });
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const over = await send('POST', reviewPaths.flagProfile(), young, {
      id: userOf(targets[3]!),
      reason: 'Spam',
    });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 6 });
    expect(over.json().message).toMatch(
      /^You are flagging quickly\. Please wait \d+ minutes before flagging again\.$/,
    );

    const established = await t.signup('Old');
    await age(established);
    for (const target of targets) {
      const ok = await send('POST', reviewPaths.flagProfile(), established, {
        id: userOf(target),
        reason: 'Spam',
      });
      expect(ok.statusCode, ok.body).toBe(200);
    }
  });
});

describe('reported story comments', () => {
  it('enter the same queue; a rejected one disappears for everyone but its writer, who is told why', async () => {
    const [ep] = await t.rows<{ storyId: number; episodeId: number; partNumber: number }>(sql`
      select s.id as "storyId", e.id as "episodeId", e.part_number as "partNumber"
      from stories s join episodes e on e.story_id = s.id and e.status = 'published'
      where not s.members_only and not e.members_only and s.number_of_parts > 0
        and (s.release_at is null or s.release_at <= now())
      order by s.id, e.part_number limit 1`);
    const writer = await t.signup('Commenter');
    const posted = await send('POST', apiPaths.comment(), writer, {
      storyId: ep!.storyId,
      episodeId: ep!.episodeId,
      feedback: 'A comment with an insult in it',
      platform: 'web',
    });
    expect(posted.statusCode, posted.body).toBe(200);
    const commentId = (posted.json().object.comment as Comment).commentId;
    const reported = await send('POST', apiPaths.report(), reader, {
      commentId,
      reason: 'It insults the author',
    });
    expect(reported.statusCode, reported.body).toBe(200);

    const item = await itemFor('comment', commentId);
    expect(item).toMatchObject({
      target: {
        kind: 'comment',
        id: commentId,
        storyId: ep!.storyId,
        preview: 'A comment with an insult in it',
      },
      flags: [{ by: { userId: userOf(reader) }, reason: 'It insults the author' }],
    });
    expect(item!.history.map((h) => h.action)).toEqual(['flagged']);

    const decided = await send('POST', reviewPaths.decideComment(), editor, {
      commentId,
      decision: 'reject',
      reason: 'Insults are not allowed here.',
    });
    expect(decided.statusCode, decided.body).toBe(200);

    const ids = async (token: string) =>
      (
        (await send('GET', apiPaths.comments(ep!.storyId, ep!.partNumber), token)).json().object
          .comments as Comment[]
      ).map((c) => c.commentId);
    expect(await ids(reader)).not.toContain(commentId);
    expect(await ids(editor2)).not.toContain(commentId);
    expect(await ids(writer)).toContain(commentId);

    expect(
      await waitFor(
        async () =>
          (
            await t.rows(sql`select 1 from community_notifications
              where user_id = ${userOf(writer)} and kind = 'review'
                and excerpt = 'Insults are not allowed here.'`)
          ).length === 1,
      ),
    ).toBe(true);
    const [report] = await t.rows<{ status: string }>(
      sql`select status from comment_reports where comment_id = ${commentId}`,
    );
    expect(report!.status).toBe('removed');
    expect(await itemFor('comment', commentId)).toBeUndefined();
  });
});

describe('the kept words, as holdFor matches them', () => {
  it('a listed Sinhala word holds a text written with a ZWJ, without, and in Singlish; whole words only', async () => {
    const added = await send('POST', reviewPaths.words(), editor, { word: 'ද්‍රෝහියා' });
    expect(added.statusCode, added.body).toBe(200);
    const writer = await t.signup('Holds');
    await age(writer);
    const hold = (text: string) =>
      holdFor(t.database.db, { userId: userOf(writer), text, kind: 'comment' });
    for (const text of ['ඔයා ද්‍රෝහියා', 'ඔයා ද්රෝහියා', 'oya drohiya', 'OYA DROHIYAA!'])
      expect(await hold(text), text).toEqual({ reason: HELD_WORD.comment });
    expect(await hold('ඔයා හොඳ යාළුවෙක්')).toBeNull();
    expect(await hold('drohiyawa')).toBeNull();
  });
});
