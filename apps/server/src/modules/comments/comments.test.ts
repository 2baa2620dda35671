import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import {
  ENGAGEMENT,
  PRODUCT_APP_ID,
  apiPaths,
  formatCreatedDate,
  type Comment,
} from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { DEMO_MEMBER, DEMO_PASSWORD } from '../../db/seed/index.ts';

let t: TestApp;

interface StoryRef {
  storyId: number;
  episodeId: number;
  partNumber: number;
  authorEmail: string;
}
let free: StoryRef;
let members: StoryRef;

const rows = <T>(query: SQL) => t.rows<T>(query);

/** A released story's first episode, with the e-mail of its author's account. */
const storyWhere = async (membersOnly: boolean) =>
  (
    await rows<StoryRef>(sql`
      select s.id as "storyId", e.id as "episodeId", e.part_number as "partNumber",
        u.email as "authorEmail"
      from stories s join episodes e on e.story_id = s.id and e.status = 'published'
        join authors a on a.id = s.author_id join users u on u.id = a.user_id
      where s.members_only = ${membersOnly} and not e.members_only and s.number_of_parts > 0
        and (s.release_at is null or s.release_at <= now())
      order by s.id, e.part_number limit 1`)
  )[0]!;

beforeAll(async () => {
  t = await createTestApp();
  free = await storyWhere(false);
  members = await storyWhere(true);
}, 120_000);
afterAll(() => t.close());

const send = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  token: string | null,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });

const post = (token: string | null, feedback: string, story: StoryRef = free) =>
  send('POST', apiPaths.comment(), token, {
    storyId: story.storyId,
    episodeId: story.episodeId,
    feedback,
    platform: 'web',
  });

const postOk = async (token: string, feedback: string, story: StoryRef = free) => {
  const res = await post(token, feedback, story);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.comment as Comment;
};

const reply = (token: string, commentId: number, text: string) =>
  send('POST', apiPaths.reply(), token, { commentId, reply: text, platform: 'web' });

const list = async (token: string, story: StoryRef = free) => {
  const res = await send('GET', apiPaths.comments(story.storyId, story.partNumber), token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object as { comments: Comment[]; followers: unknown[] };
};

const stored = (id: number) =>
  rows<{ body: string; repliesCount: number; parentId: number | null }>(
    sql`select body, replies_count as "repliesCount", parent_id as "parentId" from comments where id = ${id}`,
  );

const countFor = async (userId: number) =>
  Number(
    (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from comments where user_id = ${userId}`,
      )
    )[0]!.n,
  );

const userIdOf = async (token: string) => {
  const res = await send('GET', apiPaths.me(), token);
  expect(res.statusCode, res.body).toBe(200);
  const me = res.json().object as { userId?: number; id?: number };
  return (me.userId ?? me.id)!;
};

describe('who may take part', () => {
  it('answers a visitor 401 on every call', async () => {
    expect((await send('GET', apiPaths.comments(free.storyId, 1), null)).statusCode).toBe(401);
    expect((await post(null, 'hello')).statusCode).toBe(401);
    expect(
      (await send('DELETE', apiPaths.comment(), null, { storyId: 1, commentId: 1 })).statusCode,
    ).toBe(401);
    expect(
      (await send('POST', apiPaths.reply(), null, { commentId: 1, reply: 'x', platform: 'web' }))
        .statusCode,
    ).toBe(401);
    expect((await send('GET', apiPaths.replies(1), null)).statusCode).toBe(401);
    expect(
      (await send('POST', apiPaths.report(), null, { commentId: 1, reason: 'spam' })).statusCode,
    ).toBe(401);
  });

  it('lets only members comment on a members-only story', async () => {
    const reader = await t.signup();
    const res = await post(reader, 'Members only?', members);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 8,
      message: 'This story is for members. Subscribe to join the conversation.',
    });
    expect(await countFor(await userIdOf(reader))).toBe(0);

    const member = await t.login(DEMO_MEMBER, DEMO_PASSWORD);
    const mine = await postOk(member, 'A member speaks.', members);
    // A reader may read the conversation but not reply in it.
    expect((await list(reader, members)).comments.map((c) => c.commentId)).toContain(
      mine.commentId,
    );
    const answer = await reply(reader, mine.commentId, 'Me too');
    expect(answer.statusCode).toBe(403);
    expect(answer.json().code).toBe(8);
    expect((await reply(member, mine.commentId, 'Replying as a member')).statusCode).toBe(200);
  });

  it('lets a reader take part once their membership is announced, and not after it lapses', async () => {
    const reader = await t.signup();
    const userId = await userIdOf(reader);
    expect((await post(reader, 'Let me in?', members)).statusCode).toBe(403);
    // The billing app of the story's author, whose membership opens the story.
    const [app] = await rows<{ appId: string }>(sql`
      select coalesce(a.app_id, ${PRODUCT_APP_ID}) as "appId"
      from stories s join authors a on a.id = s.author_id where s.id = ${members.storyId}`);
    // As the carrier's notice records it: the subscriptions' trigger announces it.
    await rows(sql`insert into subscriptions (user_id, app_id, mobile, status)
      values (${userId}, ${app!.appId}, ${`9477${String(userId).padStart(7, '0')}`}, 'active')`);
    await t.cacheBus.sync();
    await postOk(reader, 'A member now.', members);
    await rows(sql`update subscriptions set status = 'lapsed' where user_id = ${userId}`);
    await t.cacheBus.sync();
    const late = await post(reader, 'Still in?', members);
    expect(late.statusCode).toBe(403);
    expect(late.json().code).toBe(8);
    expect(await countFor(userId)).toBe(1);
  });

  it('answers 404 for an unknown story or an episode of another story', async () => {
    const reader = await t.signup();
    expect((await send('GET', apiPaths.comments(999_999, 1), reader)).statusCode).toBe(404);
    const wrong = await post(reader, 'hello', { ...free, episodeId: members.episodeId });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().code).toBe(4);
    expect((await post(reader, 'hello', { ...free, storyId: 999_999 })).statusCode).toBe(404);
  });

  it('refuses a comment on an episode taken down after others commented on it', async () => {
    const { token: author } = await t.newAuthor('Takedown');
    const storyId = await t.createStory(author);
    const episodeId = await t.publishEpisode(author, storyId, 'Soon gone');
    const story = { ...free, storyId, episodeId, partNumber: 1 };
    const reader = await t.signup();
    const first = await postOk(reader, 'first!', story);
    expect((await reply(reader, first.commentId, 'and me')).statusCode).toBe(200);
    // Taken down behind the server's back: the episodes' trigger announces it.
    await t.rows(sql`update episodes set status = 'draft' where id = ${episodeId}`);
    await t.cacheBus.sync();
    const late = await post(reader, 'still here?', story);
    expect(late.statusCode, late.body).toBe(404);
    const answer = await reply(reader, first.commentId, 'and a reply?');
    expect(answer.statusCode, answer.body).toBe(404);
    expect(answer.json()).toEqual({ code: 4, message: 'That episode is no longer published.' });
    expect(await countFor(await userIdOf(reader))).toBe(2);
  });

  it('refuses a platform other than web', async () => {
    const reader = await t.signup();
    const res = await send('POST', apiPaths.comment(), reader, {
      storyId: free.storyId,
      episodeId: free.episodeId,
      feedback: 'hello',
      platform: 'ios',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('posting and listing', () => {
  it('answers every Comment field, in the list too, newest first', async () => {
    const reader = await t.signup('Lister');
    const first = await postOk(reader, 'First thoughts.');
    const second = await postOk(reader, 'Second thoughts.');
    const userId = await userIdOf(reader);
    await t.database.db.execute(
      sql`insert into ratings (user_id, story_id, rating) values (${userId}, ${free.storyId}, 4.5)
          on conflict (user_id, story_id) do update set rating = 4.5`,
    );

    const [row] = await rows<{ createdAt: Date }>(
      sql`select created_at as "createdAt" from comments where id = ${second.commentId}`,
    );
    expect(second).toEqual({
      commentId: second.commentId,
      storyId: free.storyId,
      episode: free.partNumber,
      unicodeCompatibleUsername: expect.stringMatching(/^Lister \d+$/),
      unicodeCompatibleFeedback: 'Second thoughts.',
      createdDate: formatCreatedDate(row!.createdAt),
      repliesCount: 0,
      isAuthor: false,
      editable: true,
      rating: null,
      replies: [],
      userId,
      mentions: [],
    });
    expect(second.createdDate).toMatch(/^\d{2}-\d{2}-\d{2} (0\d|1[0-2]):[0-5]\d:[0-5]\d (am|pm)$/);

    const answer = await list(reader);
    const ids = answer.comments.map((c) => c.commentId);
    expect(ids.indexOf(second.commentId)).toBeLessThan(ids.indexOf(first.commentId));
    const listed = answer.comments.find((c) => c.commentId === second.commentId)!;
    expect(listed).toEqual({ ...second, rating: 4.5 });

    // Another reader sees it, not editable.
    const other = await t.signup();
    const seen = (await list(other)).comments.find((c) => c.commentId === second.commentId)!;
    expect(seen.editable).toBe(false);
    expect(seen.rating).toBe(4.5);
  });

  it("marks the story author's comment, without a rating", async () => {
    const author = await t.login(free.authorEmail, DEMO_PASSWORD);
    const userId = await userIdOf(author);
    await t.database.db.execute(
      sql`insert into ratings (user_id, story_id, rating) values (${userId}, ${free.storyId}, 5)
          on conflict (user_id, story_id) do update set rating = 5`,
    );
    const mine = await postOk(author, 'Thank you for reading!');
    expect(mine).toMatchObject({ isAuthor: true, rating: null, editable: true });
    const reader = await t.signup();
    const listed = (await list(reader)).comments.find((c) => c.commentId === mine.commentId)!;
    expect(listed).toMatchObject({ isAuthor: true, rating: null, editable: false });
  });

  it('lists only the comments of the part asked for, without replies', async () => {
    const reader = await t.signup();
    const top = await postOk(reader, 'On this part');
    expect((await reply(reader, top.commentId, 'a reply')).statusCode).toBe(200);
    const other = await send('GET', apiPaths.comments(free.storyId, free.partNumber + 50), reader);
    expect(other.json().object.comments).toEqual([]);
    const here = (await list(reader)).comments;
    expect(here.every((c) => c.episode === free.partNumber)).toBe(true);
    expect(here.some((c) => c.unicodeCompatibleFeedback === 'a reply')).toBe(false);
  });

  it('refuses empty and blank text and stores nothing', async () => {
    const reader = await t.signup();
    for (const text of ['', '   ', '\n\t ', '\u200D']) {
      const res = await post(reader, text);
      expect(res.statusCode, JSON.stringify(text)).toBe(400);
      expect(res.json()).toEqual({ code: 1, message: 'Write something before posting.' });
    }
    const top = await postOk(reader, 'something');
    const blankReply = await reply(reader, top.commentId, '   ');
    expect(blankReply.statusCode).toBe(400);
    expect(blankReply.json().message).toBe('Write a reply before sending it.');
    expect(await countFor(top.userId)).toBe(1);
  });

  it('refuses text the database cannot hold (NUL, a lone surrogate) with 400, not 500', async () => {
    const reader = await t.signup();
    for (const text of ['a\u0000b', 'broken \uD800 half']) {
      const res = await post(reader, text);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The text contains characters that are not allowed.');
    }
    expect(await countFor(await userIdOf(reader))).toBe(0);
  });

  it('takes 2,000 characters and refuses 2,001', async () => {
    const reader = await t.signup();
    const tooLong = await post(reader, 'a'.repeat(ENGAGEMENT.commentChars + 1));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({
      code: 1,
      message: 'A comment can be at most 2,000 characters long; this one has 2,001.',
    });
    expect((await post(reader, ` ${'b'.repeat(ENGAGEMENT.commentChars)} `)).statusCode).toBe(200);
    const userId = await userIdOf(reader);
    expect(await countFor(userId)).toBe(1);
  });

  it('stores and answers markup byte for byte, as text', async () => {
    const reader = await t.signup();
    const typed = '<img src=x onerror=alert(1)>';
    const mine = await postOk(reader, typed);
    expect(mine.unicodeCompatibleFeedback).toBe(typed);
    expect((await stored(mine.commentId))[0]!.body).toBe(typed);
    const listed = (await list(reader)).comments.find((c) => c.commentId === mine.commentId)!;
    expect(listed.unicodeCompatibleFeedback).toBe(typed);
    const res = await send('GET', apiPaths.comments(free.storyId, free.partNumber), reader);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('keeps Sinhala with its joiner, normalised to NFC', async () => {
    const reader = await t.signup();
    const typed = 'ශ්‍රී ලංකාවේ කතාව ඉතා හොඳයි!';
    expect(typed).toContain('\u200D');
    const mine = await postOk(reader, `  ${typed.normalize('NFD')}\n`);
    expect(mine.unicodeCompatibleFeedback).toBe(typed.normalize('NFC'));
    expect((await stored(mine.commentId))[0]!.body).toBe(typed.normalize('NFC'));
  });

  it('records one comment.posted event per comment and reply', async () => {
    const reader = await t.signup();
    const top = await postOk(reader, 'An event');
    const answer = await reply(reader, top.commentId, 'Another event');
    const replyId = answer.json().object.comment.commentId as number;
    const events = await rows<{ payload: string }>(
      sql`select payload from events where type = 'comment.posted'`,
    );
    const mine = events.map((e) => JSON.parse(e.payload)).filter((p) => p.userId === top.userId);
    expect(mine).toEqual([
      {
        commentId: top.commentId,
        storyId: free.storyId,
        partNumber: free.partNumber,
        parentId: null,
        userId: top.userId,
      },
      {
        commentId: replyId,
        storyId: free.storyId,
        partNumber: free.partNumber,
        parentId: top.commentId,
        userId: top.userId,
      },
    ]);
  });
  // The posting pace (a token bucket) has its own tests: pace.test.ts.
});

describe('followers and mentions', () => {
  it('answers who follows the viewer and stores mentions of followers', async () => {
    const writer = await t.signup('Writer');
    const fan = await t.signup('Fan Club');
    const writerId = await userIdOf(writer);
    const fanId = await userIdOf(fan);
    await t.database.db.execute(
      sql`insert into follows (follower_id, followed_id) values (${fanId}, ${writerId})`,
    );
    const answer = await list(writer);
    expect(answer.followers).toEqual([
      { userId: fanId, username: expect.stringMatching(/^Fan Club \d+$/) },
    ]);
    const fanName = (answer.followers[0] as { username: string }).username;

    const mine = await postOk(writer, `Thanks @${fanName}, and @${fanName.toLowerCase()}! @Writer`);
    const mentions = await rows<{ userId: number }>(
      sql`select user_id as "userId" from comment_mentions where comment_id = ${mine.commentId}`,
    );
    expect(mentions).toEqual([{ userId: fanId }]);
  });

  it('mentions people in the thread by their longest name, never the writer', async () => {
    const a = await t.signup('Nimal Perera');
    const b = await t.signup('Nimal');
    const aComment = await postOk(a, 'I was here first');
    const bName = await nameOf(b);
    await postOk(b, 'Me too');
    const c = await t.signup('Writer');
    const text = `@${aComment.unicodeCompatibleUsername} and @${bName}. And @${await nameOf(c)}`;
    const mine = await postOk(c, text);
    const mentions = await rows<{ userId: number }>(
      sql`select user_id as "userId" from comment_mentions where comment_id = ${mine.commentId} order by user_id`,
    );
    expect(mentions.map((m) => m.userId).sort()).toEqual(
      [aComment.userId, await userIdOf(b)].sort(),
    );
  });

  it('mentions anyone by an exact one-word name; an unknown name mentions nobody', async () => {
    const word = `Ruwan${Date.now().toString(36)}`;
    const signupAs = async (username: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.signup(),
        payload: {
          email: `${username.toLowerCase()}.${Math.random().toString(36).slice(2)}@example.com`,
          password: 'correct horse battery',
          username,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().object.accesstoken as string;
    };
    const ruwan = await userIdOf(await signupAs(word));
    const writer = await t.signup();
    const once = await postOk(writer, `Hello @${word.toLowerCase()}!`);
    const mentioned = (id: number) =>
      rows<{ userId: number }>(
        sql`select user_id as "userId" from comment_mentions where comment_id = ${id}`,
      );
    expect(await mentioned(once.commentId)).toEqual([{ userId: ruwan }]);

    // Usernames are unique as readers see them, so a name names one person or nobody.
    const nobody = await postOk(writer, `Which @Nobody${Date.now().toString(36)}?`);
    expect(await mentioned(nobody.commentId)).toEqual([]);
  });

  it('answers whom each comment mentions, with the author page of an author', async () => {
    const reader = await t.signup();
    const readerName = await nameOf(reader);
    await postOk(reader, 'In the conversation');
    const author = await t.login(free.authorEmail, DEMO_PASSWORD);
    const [authorRow] = await rows<{ userId: number; authorId: number; username: string }>(sql`
      select u.id as "userId", a.id as "authorId", u.username from users u
        join authors a on a.user_id = u.id where u.email = ${free.authorEmail}`);
    const writer = await t.signup();
    const posted = await postOk(
      writer,
      `@${readerName} look, @${authorRow!.username.toLowerCase()} answered`,
    );
    const expected = [
      { userId: await userIdOf(reader), username: readerName, authorId: null },
      { userId: authorRow!.userId, username: authorRow!.username, authorId: authorRow!.authorId },
    ].sort((a, b) => a.userId - b.userId);
    expect(posted.mentions).toEqual(expected);
    const listed = (await list(author)).comments.find((c) => c.commentId === posted.commentId);
    expect(listed!.mentions).toEqual(expected);
    expect((await postOk(writer, 'No one here')).mentions).toEqual([]);
  });

  it('mentions the writer of the reply being answered', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const c = await t.signup();
    const top = await postOk(a, 'Top');
    const bReply = (await reply(b, top.commentId, 'B says')).json().object.comment as Comment;
    const cReply = await reply(c, bReply.commentId, 'C answers B');
    expect(cReply.statusCode).toBe(200);
    const cComment = cReply.json().object.comment as Comment;
    // Replies are one level deep: C's reply joins the top-level comment.
    expect((await stored(cComment.commentId))[0]!.parentId).toBe(top.commentId);
    const mentions = await rows<{ userId: number }>(
      sql`select user_id as "userId" from comment_mentions where comment_id = ${cComment.commentId}`,
    );
    expect(mentions).toEqual([{ userId: bReply.userId }]);
  });
});

const nameOf = async (token: string) => {
  const res = await send('GET', apiPaths.me(), token);
  const me = res.json().object as { username?: string; name?: string };
  return (me.username ?? me.name)!;
};

describe('replies', () => {
  it('lists replies oldest first and keeps repliesCount', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const top = await postOk(a, 'Start of a thread');
    const r1 = await reply(b, top.commentId, 'first reply');
    const r2 = await reply(a, top.commentId, 'second reply');
    expect(r1.statusCode).toBe(200);
    expect(r2.statusCode).toBe(200);
    const first = r1.json().object.comment as Comment;
    expect(first).toMatchObject({
      editable: true,
      repliesCount: 0,
      replies: [],
      episode: free.partNumber,
    });

    const res = await send('GET', apiPaths.replies(top.commentId), a);
    expect(res.statusCode).toBe(200);
    const replies = res.json().object.list as Comment[];
    expect(replies.map((r) => r.unicodeCompatibleFeedback)).toEqual([
      'first reply',
      'second reply',
    ]);
    expect(replies.map((r) => r.editable)).toEqual([false, true]);
    expect((await list(a)).comments.find((c) => c.commentId === top.commentId)!.repliesCount).toBe(
      2,
    );

    expect((await send('GET', apiPaths.replies(999_999), a)).statusCode).toBe(404);
    expect((await reply(a, 999_999, 'to nothing')).statusCode).toBe(404);
  });
});

describe('removing', () => {
  it("answers 403 for another reader's comment and keeps it", async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const mine = await postOk(owner, 'Mine to keep');
    const res = await send('DELETE', apiPaths.comment(), other, {
      storyId: free.storyId,
      commentId: mine.commentId,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 3, message: 'You can remove only your own comments.' });
    expect(await stored(mine.commentId)).toHaveLength(1);
  });

  it('answers 404 for an unknown comment or the wrong story', async () => {
    const owner = await t.signup();
    const mine = await postOk(owner, 'Where am I');
    const wrong = await send('DELETE', apiPaths.comment(), owner, {
      storyId: members.storyId,
      commentId: mine.commentId,
    });
    expect(wrong.statusCode).toBe(404);
    const unknown = await send('DELETE', apiPaths.comment(), owner, {
      storyId: free.storyId,
      commentId: 999_999,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await stored(mine.commentId)).toHaveLength(1);
  });

  it('removes the owner’s comment with its replies', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const mine = await postOk(owner, 'Soon gone');
    const theirs = (await reply(other, mine.commentId, 'goes too')).json().object
      .comment as Comment;
    const res = await send('DELETE', apiPaths.comment(), owner, {
      storyId: free.storyId,
      commentId: mine.commentId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, object: { removed: true } });
    expect(await stored(mine.commentId)).toEqual([]);
    expect(await stored(theirs.commentId)).toEqual([]);
    expect((await list(owner)).comments.some((c) => c.commentId === mine.commentId)).toBe(false);
  });

  it('removing a reply keeps the repliesCount right', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const top = await postOk(owner, 'Count me');
    const r = (await reply(other, top.commentId, 'one')).json().object.comment as Comment;
    await reply(other, top.commentId, 'two');
    expect((await stored(top.commentId))[0]!.repliesCount).toBe(2);
    const res = await send('DELETE', apiPaths.comment(), other, {
      storyId: free.storyId,
      commentId: r.commentId,
    });
    expect(res.statusCode).toBe(200);
    expect((await stored(top.commentId))[0]!.repliesCount).toBe(1);
    const left = (await send('GET', apiPaths.replies(top.commentId), owner)).json().object.list;
    expect(left.map((c: Comment) => c.unicodeCompatibleFeedback)).toEqual(['two']);
  });
});

describe('reporting', () => {
  it('counts the same reader reporting twice once, and opens it for editors', async () => {
    const owner = await t.signup();
    const reporter = await t.signup();
    const mine = await postOk(owner, 'Report me');
    for (const reason of ['Spam', 'Still spam']) {
      const res = await send('POST', apiPaths.report(), reporter, {
        commentId: mine.commentId,
        reason,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 0, object: { reported: true } });
    }
    const reports = await rows<{ reason: string; status: string }>(
      sql`select reason, status from comment_reports where comment_id = ${mine.commentId}`,
    );
    expect(reports).toEqual([{ reason: 'Spam', status: 'open' }]);
  });

  it('refuses reporting your own comment, an empty reason and an unknown comment', async () => {
    const owner = await t.signup();
    const mine = await postOk(owner, 'Mine');
    const own = await send('POST', apiPaths.report(), owner, {
      commentId: mine.commentId,
      reason: 'x',
    });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('You cannot report your own comment.');
    const other = await t.signup();
    const empty = await send('POST', apiPaths.report(), other, {
      commentId: mine.commentId,
      reason: '  ',
    });
    expect(empty.statusCode).toBe(400);
    const long = await send('POST', apiPaths.report(), other, {
      commentId: mine.commentId,
      reason: 'r'.repeat(ENGAGEMENT.reportReasonChars + 1),
    });
    expect(long.statusCode).toBe(400);
    const unknown = await send('POST', apiPaths.report(), other, {
      commentId: 999_999,
      reason: 'spam',
    });
    expect(unknown.statusCode).toBe(404);
    const n = await rows<{ n: number }>(
      sql`select count(*)::int as n from comment_reports where comment_id = ${mine.commentId}`,
    );
    expect(Number(n[0]!.n)).toBe(0);
  });
});
