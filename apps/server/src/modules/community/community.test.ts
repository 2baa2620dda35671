import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { apiPaths, communityPaths as paths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { deliverNotices } from './notices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string | null, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });

/**
 * A reader whose account is two days old: past the holds on new accounts' first posts
 * (moderation), which the tests of those holds cover.
 */
const member = async (name: string) => {
  const token = await t.signup(name);
  await t.rows(
    sql`update users set created_at = now() - interval '2 days' where id = ${userOf(token)}`,
  );
  return token;
};

/** Makes an account an editor or admin as the command line would (no actor). */
const makeRole = async (token: string, role: 'editor' | 'admin') =>
  t.rows(sql`update users set role = ${role} where id = ${userOf(token)}`);

const post = async (token: string, text: string, images?: number[]) => {
  const res = await call('POST', paths.post(), token, { text, ...(images ? { images } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.post as { postId: number; status: string; [k: string]: unknown };
};

const photo = (format: 'jpeg' | 'png' = 'jpeg', width = 800, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } })
    .toFormat(format)
    .toBuffer();

/** A multipart upload of `bytes` as `filename` in the field `image`. */
const upload = async (
  token: string | null,
  a: 'post' | 'profile',
  b: number | 'new',
  bytes: Buffer,
  filename = 'photo.jpg',
  type = 'image/jpeg',
) => {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
  const body = new Response(form);
  return t.app.inject({
    method: 'POST',
    url: paths.imageUpload(a, b),
    payload: Buffer.from(await body.arrayBuffer()),
    headers: {
      'content-type': body.headers.get('content-type')!,
      ...(token ? bearer(token) : {}),
    },
  });
};

/** Waits until `check` holds (jobs run on the queue's own schedule). */
const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
};

const noticesOf = (userId: number) =>
  t.rows<{ kind: string; actorId: number; postId: number | null }>(sql`
    select kind, actor_id as "actorId", post_id as "postId" from community_notifications
    where user_id = ${userId} order by id`);

describe('roles', () => {
  it('answers the caller’s role: readers, authors (as today), editors, admins', async () => {
    const reader = await member('Role Reader');
    const me = await call('GET', paths.me(), reader);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().object).toMatchObject({ userId: userOf(reader), role: 'reader', bio: '' });

    const author = await t.newAuthor('Role Writer');
    expect((await call('GET', paths.me(), author.token)).json().object.role).toBe('author');

    expect((await call('GET', paths.me(), null)).statusCode).toBe(401);
  });

  it('lets an admin grant and remove the editor role, audited; a reader gets 403', async () => {
    const admin = await member('Role Admin');
    await makeRole(admin, 'admin');
    const reader = await member('Role Candidate');
    const author = await t.newAuthor('Role Author');

    const refused = await call('PUT', paths.role(), reader, { id: userOf(admin), role: 'editor' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Only admins/);
    expect((await call('PUT', paths.role(), null, { id: 1, role: 'editor' })).statusCode).toBe(401);

    const granted = await call('PUT', paths.role(), admin, { id: userOf(reader), role: 'editor' });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().object).toEqual({ userId: userOf(reader), role: 'editor' });
    expect((await call('GET', paths.me(), reader)).json().object.role).toBe('editor');

    // An author made an editor and back stays an author.
    await call('PUT', paths.role(), admin, { id: author.userId, role: 'editor' });
    const back = await call('PUT', paths.role(), admin, { id: author.userId, role: 'reader' });
    expect(back.json().object.role).toBe('author');

    const self = await call('PUT', paths.role(), admin, { id: userOf(admin), role: 'reader' });
    expect(self.statusCode).toBe(400);

    const audit = await call('GET', paths.audit(), admin);
    expect(audit.statusCode, audit.body).toBe(200);
    const actions = audit
      .json()
      .object.list.map((a: { action: string; targetId: number }) => [a.action, a.targetId]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['role.grant', userOf(reader)],
        ['role.grant', author.userId],
        ['role.remove', author.userId],
      ]),
    );
    expect(audit.json().object.list[0].actor.userId).toBe(userOf(admin));
    // The audit log is for admins: an editor is refused.
    expect((await call('GET', paths.audit(), reader)).statusCode).toBe(403);
  });
});

describe('posts', () => {
  it('creates, reads and edits one’s own post; text stored NFC with ZWJ kept', async () => {
    const writer = await member('Post Writer');
    // 'ශ්‍රී' with a zero-width joiner, and a decomposed é that NFC composes.
    const text = '  ශ්\u200Dරී ලංකා e\u0301  ';
    const created = await post(writer, text);
    expect(created).toMatchObject({
      text: 'ශ්\u200Dරී ලංකා \u00e9',
      status: 'approved',
      lang: 'si',
      likes: 0,
      liked: false,
      shared: null,
      author: { userId: userOf(writer), role: 'reader', avatar: null },
    });

    const read = await call('GET', paths.postById(created.postId), null);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().object.post.postId).toBe(created.postId);

    const edited = await call('PUT', paths.post(), writer, {
      post_id: created.postId,
      text: 'Edited words',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().object.post).toMatchObject({ text: 'Edited words', lang: 'en' });
    expect(edited.json().object.post.editedAt).not.toBeNull();
  });

  it('refuses an empty post, 5,001 characters, another’s post, and a visitor', async () => {
    const writer = await member('Post Refusals');
    const other = await member('Post Other');
    const empty = await call('POST', paths.post(), writer, { text: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/Write something/);

    expect((await call('POST', paths.post(), writer, { text: 'අ'.repeat(5000) })).statusCode).toBe(
      200,
    );
    const long = await call('POST', paths.post(), writer, { text: 'a'.repeat(5001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('5,001');

    const mine = await post(writer, 'Mine');
    const theirs = await call('PUT', paths.post(), other, { post_id: mine.postId, text: 'Taken' });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().message).toMatch(/your own posts/);
    const removeTheirs = await call('DELETE', paths.postById(mine.postId), other);
    expect(removeTheirs.statusCode).toBe(403);
    expect((await call('POST', paths.post(), null, { text: 'Visitor' })).statusCode).toBe(401);
    const unknown = await call('PUT', paths.post(), writer, { post_id: 999_999, text: 'x' });
    expect(unknown.statusCode).toBe(404);
    // Nothing changed.
    expect((await call('GET', paths.postById(mine.postId), null)).json().object.post.text).toBe(
      'Mine',
    );
  });

  it('removes one’s own post; an editor removes another’s with a reason kept in the audit log', async () => {
    const writer = await member('Remove Writer');
    const editor = await member('Remove Editor');
    await makeRole(editor, 'editor');
    const own = await post(writer, 'Going soon');
    const res = await call('DELETE', paths.postById(own.postId), writer);
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', paths.postById(own.postId), null)).statusCode).toBe(404);

    const target = await post(writer, 'Breaks the rules');
    const noReason = await call('DELETE', paths.removePost(target.postId), editor);
    expect(noReason.statusCode).toBe(400);
    const removed = await call('DELETE', paths.removePost(target.postId, 'Spam link'), editor);
    expect(removed.statusCode, removed.body).toBe(200);
    // Its writer still sees it, removed, with why.
    const seen = (await call('GET', paths.postById(target.postId), writer)).json().object.post;
    expect(seen).toMatchObject({ status: 'removed', statusReason: 'Spam link' });
    expect((await call('GET', paths.postById(target.postId), null)).statusCode).toBe(404);
    const [row] = await t.rows<{ actorId: number; reason: string }>(sql`
      select actor_id as "actorId", reason from community_audit
      where action = 'post.remove' and target_id = ${target.postId}`);
    expect(row).toEqual({ actorId: userOf(editor), reason: 'Spam link' });
  });

  it('shows a held post to its writer only, with its state', async () => {
    const writer = await member('Held Writer');
    const held = await post(writer, 'Waiting words');
    await t.rows(sql`
      update community_posts set status = 'pending', status_reason = 'Waiting for review'
      where id = ${held.postId}`);
    const own = await call('GET', paths.postById(held.postId), writer);
    expect(own.json().object.post).toMatchObject({
      status: 'pending',
      statusReason: 'Waiting for review',
    });
    expect((await call('GET', paths.postById(held.postId), null)).statusCode).toBe(404);
    const other = await member('Held Other');
    expect((await call('GET', paths.postById(held.postId), other)).statusCode).toBe(404);
    const timeline = await call('GET', paths.timeline(userOf(writer)), writer);
    expect(timeline.json().object.list.map((p: { postId: number }) => p.postId)).toContain(
      held.postId,
    );
    const public_ = await call('GET', paths.timeline(userOf(writer)), other);
    expect(public_.json().object.list).toEqual([]);
  });
});

describe('images', () => {
  it('uploads drafts, attaches them to a post, re-encoded as WebP sizes without EXIF', async () => {
    const writer = await member('Image Writer');
    const jpeg = await sharp(await photo('jpeg', 1600, 1200))
      .withMetadata({ exif: { IFD0: { Make: 'SecretCam' } } })
      .jpeg()
      .toBuffer();
    expect(jpeg.includes(Buffer.from('SecretCam'))).toBe(true);
    const up = await upload(writer, 'post', 'new', jpeg);
    expect(up.statusCode, up.body).toBe(200);
    const image = up.json().object.image;
    expect(image).toMatchObject({ width: 1080, height: 810 });
    expect(image.srcset.split(', ')).toHaveLength(3);
    const file = await t.app.inject({ url: new URL(image.src).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.rawPayload.includes(Buffer.from('SecretCam'))).toBe(false);
    expect((await sharp(file.rawPayload).metadata()).exif).toBeUndefined();

    const created = await post(writer, 'With a picture', [image.imageId]);
    expect((created.images as { imageId: number }[]).map((i) => i.imageId)).toEqual([
      image.imageId,
    ]);
    // Picture-only posts are fine.
    const second = (await upload(writer, 'post', 'new', await photo('png', 300, 200))).json().object
      .image;
    expect((await post(writer, '', [second.imageId])).status).toBe('approved');
  });

  it('refuses an SVG named .png, a 5th image, and another’s post or profile', async () => {
    const writer = await member('Image Refusals');
    const other = await member('Image Other');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>');
    const bad = await upload(writer, 'post', 'new', svg, 'cat.png', 'image/png');
    expect(bad.statusCode).toBe(415);
    expect(bad.json().message).toMatch(/JPEG, PNG or WebP/);

    const target = await post(writer, 'Four pictures');
    const small = await photo('jpeg', 200, 200);
    for (let i = 0; i < 4; i++)
      expect((await upload(writer, 'post', target.postId, small)).statusCode).toBe(200);
    const fifth = await upload(writer, 'post', target.postId, small);
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json().message).toMatch(/at most 4 pictures/);
    const read = (await call('GET', paths.postById(target.postId), null)).json().object.post;
    expect(read.images).toHaveLength(4);

    const theirs = await upload(other, 'post', target.postId, small);
    expect(theirs.statusCode).toBe(403);
    const profile = await upload(other, 'profile', userOf(writer), small);
    expect(profile.statusCode).toBe(403);
    expect((await upload(null, 'post', 'new', small)).statusCode).toBe(401);
    const removeTheirs = await call(
      'DELETE',
      paths.image('post', target.postId, read.images[0].imageId),
      other,
    );
    expect(removeTheirs.statusCode).toBe(403);

    // Five drafts at once are refused too, and a post cannot take five ids.
    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await upload(other, 'post', 'new', small)).json().object.image.imageId);
    expect((await upload(other, 'post', 'new', small)).statusCode).toBe(400);
    const five = await call('POST', paths.post(), other, { text: 'x', images: [...ids, 1] });
    expect(five.statusCode).toBe(400);
    // Another's draft cannot be attached.
    const stolen = await call('POST', paths.post(), writer, { text: 'x', images: [ids[0]] });
    expect(stolen.statusCode).toBe(400);
  });

  it('sets and removes one’s profile picture', async () => {
    const reader = await member('Avatar Reader');
    const up = await upload(reader, 'profile', userOf(reader), await photo('png', 500, 300));
    expect(up.statusCode, up.body).toBe(200);
    const me = (await call('GET', paths.me(), reader)).json().object;
    expect(me.avatar.srcset).toContain('384w');
    const removed = await call('DELETE', paths.image('profile', userOf(reader)), reader);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', paths.me(), reader)).json().object.avatar).toBeNull();
  });
});

describe('feeds', () => {
  it('answers the feed newest first with hasNext, pages by ?page, and pinned posts', async () => {
    const writers = [await member('Feed A'), await member('Feed B'), await member('Feed C')];
    const editor = await member('Feed Editor');
    await makeRole(editor, 'editor');
    const ids: number[] = [];
    // Three writers: each account's posting pace (moderation) allows a burst of ten.
    for (let i = 0; i < 25; i++) ids.push((await post(writers[i % 3]!, `Feed post ${i}`)).postId);
    const first = await call('GET', paths.feed(1), null);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json().object;
    expect(page1.page).toBe(1);
    expect(page1.hasNext).toBe(true);
    expect(page1.list).toHaveLength(20);
    expect(page1.list[0].postId).toBe(ids[24]);
    const page2 = (await call('GET', paths.feed(2), null)).json().object;
    expect(page2.list[0].postId).toBe(page1.list[19].postId - 1);

    const pin = await call('PUT', paths.pin(ids[3]!), editor);
    expect(pin.statusCode, pin.body).toBe(200);
    expect(pin.json().object).toEqual({ postId: ids[3], pinned: true });
    const pinned = (await call('GET', paths.pinned(), null)).json().object;
    expect(pinned.list.map((p: { postId: number }) => p.postId)).toContain(ids[3]);
    const reader = await member('Feed Reader');
    expect((await call('PUT', paths.pin(ids[3]!), reader)).statusCode).toBe(403);
    expect((await call('PUT', paths.pin(ids[3]!), null)).statusCode).toBe(401);
    const unpin = await call('PUT', paths.pin(ids[3]!), editor);
    expect(unpin.json().object.pinned).toBe(false);
  });

  it('keeps the feed one answer for everyone: a new post shows at once, the viewer’s likes apart', async () => {
    const writer = await member('Cache Writer');
    const fan = await member('Cache Fan');
    await call('GET', paths.feed(), null);
    const fresh = await post(writer, 'Just now');
    const seen = await call('GET', paths.feed(), null);
    expect(seen.json().object.list[0].postId).toBe(fresh.postId);
    await call('PUT', paths.like(), fan, { post_id: fresh.postId });
    const asFan = await call('GET', paths.feed(), fan);
    const asVisitor = await call('GET', paths.feed(), null);
    // One kept answer: the same bytes whoever asks, with no one's like in it.
    expect(asFan.body).toBe(asVisitor.body);
    expect(asFan.json().object.list[0]).toMatchObject({ postId: fresh.postId, liked: false });
    const liked = await call('GET', paths.liked([fresh.postId]), fan);
    expect(liked.json().object.liked).toEqual([fresh.postId]);
  });

  it('gives the reader’s own feed: followed people’s posts and followed authors’ episodes', async () => {
    const reader = await member('Own Feed Reader');
    const friend = await member('Own Feed Friend');
    const stranger = await member('Own Feed Stranger');
    const author = await t.newAuthor('Own Feed Author');
    await call('PUT', paths.follow(), reader, { followed_id: userOf(friend) });
    await call('PUT', paths.follow(), reader, { followed_id: author.userId });
    const storyId = await t.createStory(author.token);
    await t.publishEpisode(author.token, storyId, 'Opening');
    const friendPost = await post(friend, 'From a friend');
    await post(stranger, 'From a stranger');

    const res = await call('GET', paths.personalFeed(), reader);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().object.list;
    expect(list[0]).toMatchObject({ kind: 'post', post: { postId: friendPost.postId } });
    expect(list[1]).toMatchObject({
      kind: 'episode',
      episode: { storyId, partNumber: 1, reason: 'author' },
    });
    expect(list).toHaveLength(2);
    expect((await call('GET', paths.personalFeed(), null)).statusCode).toBe(401);
  });
});

describe('likes, shares and comments', () => {
  it('toggles a like; the same like sent at once counts once', async () => {
    const writer = await member('Like Writer');
    const fan = await member('Like Fan');
    const { postId } = await post(writer, 'Like me');
    const once = await call('PUT', paths.like(), fan, { post_id: postId });
    expect(once.json().object).toEqual({ liked: true, likes: 1 });
    const twice = await call('PUT', paths.like(), fan, { post_id: postId });
    expect(twice.json().object).toEqual({ liked: false, likes: 0 });

    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('PUT', paths.like(), fan, { post_id: postId, liked: true }),
      ),
    );
    for (const a of answers) expect(a.json().object.liked).toBe(true);
    const [row] = await t.rows<{ likes: number; n: number }>(sql`
      select likes_count as likes,
        (select count(*)::int from community_likes where post_id = ${postId}) as n
      from community_posts where id = ${postId}`);
    expect(row).toEqual({ likes: 1, n: 1 });
    const liked = await call('GET', paths.liked([postId, postId + 1]), fan);
    expect(liked.json().object).toEqual({ liked: [postId] });
    expect((await call('GET', paths.feedPost(postId), fan)).json().object.post.liked).toBe(true);
    expect((await call('PUT', paths.like(), null, { post_id: postId })).statusCode).toBe(401);
    expect((await call('PUT', paths.like(), fan, { post_id: 999_999 })).statusCode).toBe(404);
  });

  it('shares a post and a story; a shared story shows its cover and title', async () => {
    const writer = await member('Share Writer');
    const sharer = await member('Share Sharer');
    const author = await t.newAuthor('Share Author');
    const storyId = await t.createStory(author.token, { title: 'Shared Tale' });
    await t.publishEpisode(author.token, storyId);
    const original = await post(writer, 'Worth sharing');
    const res = await call('POST', paths.share(), sharer, {
      post_id: original.postId,
      text: 'Look',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object.post).toMatchObject({
      text: 'Look',
      shared: { kind: 'post', post: { postId: original.postId } },
    });
    expect(
      (await call('GET', paths.postById(original.postId), null)).json().object.post.shares,
    ).toBe(1);
    const story = await call('POST', paths.share(), sharer, { storyId });
    expect(story.json().object.post.shared).toMatchObject({
      kind: 'story',
      story: { storyId, title: 'Shared Tale', lang: 'english' },
    });
    expect(story.json().object.post.shared.story.cover).toContain(`story_cover_${storyId}.png`);
    const both = await call('POST', paths.share(), sharer, { storyId, post_id: original.postId });
    expect(both.statusCode).toBe(400);
    expect((await call('POST', paths.share(), sharer, { storyId: 999_999 })).statusCode).toBe(404);
  });

  it('comments with mentions and lists them with follower suggestions', async () => {
    const writer = await member('Comment Writer');
    const fan = await member('Comment Fan');
    const friend = await member('Comment Friend');
    await call('PUT', paths.follow(), friend, { followed_id: userOf(fan) });
    const { postId } = await post(writer, 'Talk to me');
    const friendName = (await call('GET', paths.me(), friend)).json().object.username;
    const res = await call('POST', paths.comment(), fan, {
      post_id: postId,
      comment: `Hello @${friendName} look`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object.comment).toMatchObject({
      postId,
      comment: `Hello @${friendName} look`,
      mentions: [{ userId: userOf(friend), username: friendName }],
      editable: true,
    });
    const list = await call('GET', paths.comments(postId), fan);
    expect(list.json().object).toMatchObject({ page: 1, hasNext: false });
    expect(list.json().object.list).toHaveLength(1);
    expect(list.json().object.followers).toEqual([
      { userId: userOf(friend), username: friendName },
    ]);
    expect((await call('GET', paths.comments(postId), writer)).json().object.followers).toEqual([]);
    expect((await call('GET', paths.postById(postId), null)).json().object.post.comments).toBe(1);
    const empty = await call('POST', paths.comment(), fan, { post_id: postId, comment: '  ' });
    expect(empty.statusCode).toBe(400);
    const visitor = await call('POST', paths.comment(), null, { post_id: postId, comment: 'x' });
    expect(visitor.statusCode).toBe(401);

    const mentions = await call('GET', paths.mentions(), friend);
    expect(mentions.json().object.list[0]).toMatchObject({
      postId,
      author: { userId: userOf(fan) },
    });
  });
});

describe('profiles', () => {
  it('answers name, bio, role, counts and whether the viewer follows; one edits one’s own bio', async () => {
    const person = await member('Profile Person');
    const viewer = await member('Profile Viewer');
    await post(person, 'Hello');
    await call('PUT', paths.follow(), viewer, { followed_id: userOf(person) });
    const set = await call('PUT', paths.ownProfile(), person, { bio: 'I read at night.' });
    expect(set.statusCode, set.body).toBe(200);
    const res = await call('GET', paths.profile(userOf(person)), viewer);
    expect(res.json().object).toMatchObject({
      userId: userOf(person),
      bio: 'I read at night.',
      role: 'reader',
      avatar: null,
      posts: 1,
      followers: 1,
      following: 0,
      followed: true,
    });
    expect((await call('GET', paths.profile(userOf(person)), null)).json().object.followed).toBe(
      false,
    );
    expect((await call('PUT', paths.ownProfile(), null, { bio: 'x' })).statusCode).toBe(401);
    const long = await call('PUT', paths.ownProfile(), person, { bio: 'x'.repeat(301) });
    expect(long.statusCode).toBe(400);
  });
});

describe('notifications', () => {
  it('tells the writer of a like, comment, mention, share and follow once each, never the actor', async () => {
    const writer = await member('Notice Writer');
    const fan = await member('Notice Fan');
    const writerName = (await call('GET', paths.me(), writer)).json().object.username;
    const { postId } = await post(writer, 'Tell me things');
    await call('PUT', paths.like(), fan, { post_id: postId });
    await call('PUT', paths.like(), fan, { post_id: postId });
    await call('PUT', paths.like(), fan, { post_id: postId });
    await call('POST', paths.comment(), fan, { post_id: postId, comment: `Nice @${writerName}` });
    await call('POST', paths.share(), fan, { post_id: postId });
    await call('PUT', paths.follow(), fan, { followed_id: userOf(writer) });
    // The writer's own like and comment tell no one.
    await call('PUT', paths.like(), writer, { post_id: postId });
    await call('POST', paths.comment(), writer, { post_id: postId, comment: 'Thanks' });

    const kinds = () => noticesOf(userOf(writer)).then((n) => n.map((x) => x.kind).sort());
    expect(
      await waitFor(async () => (await kinds()).length === 4),
      JSON.stringify(await kinds()),
    ).toBe(true);
    // The comment mentioning the writer is one notification (comment), not two.
    expect(await kinds()).toEqual(['comment', 'follow', 'like', 'share']);
    // A rerun of every event (a crash and a retry) adds nothing.
    await deliverNotices(t.database.db, { kind: 'like', postId, actorId: userOf(fan) });
    await deliverNotices(t.database.db, {
      kind: 'follow',
      followedId: userOf(writer),
      actorId: userOf(fan),
    });
    expect(await kinds()).toHaveLength(4);
    expect(await noticesOf(userOf(fan))).toEqual([]);

    const res = await call('GET', paths.notifications(), writer);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().object;
    expect(page.unread).toBe(4);
    expect(page.list[0]).toMatchObject({ actor: { userId: userOf(fan) }, read: false });
    expect((await call('GET', paths.notifications(), writer)).json().object.unread).toBe(0);
    expect((await call('GET', paths.notifications(), null)).statusCode).toBe(401);
  });
});

describe('the menu badge', () => {
  /** What the bell's badge shows: GET /api/v1/firebase/notifications/unread. */
  const badge = async (token: string) => {
    const res = await call('GET', apiPaths.unreadNotifications(), token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().object.unread as number;
  };

  it('counts the reader’s unread community notifications until the drawer lists them', async () => {
    const writer = await member('Badge Writer');
    const fan = await member('Badge Fan');
    const other = await member('Badge Other');
    const { postId } = await post(writer, 'Count me in');
    const { postId: otherPostId } = await post(other, 'Not yours');
    const [before, otherBefore] = [await badge(writer), await badge(other)];

    await call('PUT', paths.like(), fan, { post_id: postId });
    await call('POST', paths.comment(), fan, { post_id: postId, comment: 'Lovely' });
    // Another reader's notice never reaches the writer's badge.
    await call('PUT', paths.like(), fan, { post_id: otherPostId });
    expect(
      await waitFor(
        async () =>
          (await noticesOf(userOf(writer))).length === 2 &&
          (await noticesOf(userOf(other))).length === 1,
      ),
    ).toBe(true);
    expect(await badge(writer)).toBe(before + 2);
    expect(await badge(other)).toBe(otherBefore + 1);

    // Opening the drawer loads both of its lists; the community's marks its notices read.
    expect((await call('GET', apiPaths.notifications(), writer)).statusCode).toBe(200);
    const listed = (await call('GET', paths.notifications(), writer)).json().object;
    expect(listed.unread).toBe(2);
    expect(await badge(writer)).toBe(0);
    expect(await badge(other)).toBe(otherBefore + 1);

    // A later like counts again, once.
    const late = await member('Badge Late');
    await call('PUT', paths.like(), late, { post_id: postId });
    expect(await waitFor(async () => (await noticesOf(userOf(writer))).length === 3)).toBe(true);
    expect(await badge(writer)).toBe(1);
    expect((await call('GET', apiPaths.unreadNotifications(), null)).statusCode).toBe(401);
  });
});

describe('the demo community', () => {
  it('has an editor, an admin and a lively feed in both languages', async () => {
    const editor = await t.login('editor@demo.kathamala.lk', 'kathamala-demo');
    const admin = await t.login('admin@demo.kathamala.lk', 'kathamala-demo');
    expect((await call('GET', paths.me(), editor)).json().object.role).toBe('editor');
    expect((await call('GET', paths.me(), admin)).json().object.role).toBe('admin');

    const posts = await t.rows<{
      lang: string;
      likes: number;
      comments: number;
      story: number;
    }>(sql`
      select lang, likes_count as likes, comments_count as comments,
        shared_story_id as story from community_posts
      where user_id in (select id from users where email like '%@demo.kathamala.lk'
        or is_author)`);
    expect(posts.length).toBeGreaterThanOrEqual(20);
    expect(posts.some((p) => p.lang === 'si')).toBe(true);
    expect(posts.some((p) => p.lang === 'en')).toBe(true);
    expect(posts.filter((p) => p.likes > 0).length).toBeGreaterThan(10);
    expect(posts.some((p) => p.comments > 0)).toBe(true);
    expect(posts.some((p) => p.story !== null)).toBe(true);
    const pinned = (await call('GET', paths.pinned(), null)).json().object.list;
    expect(pinned.length).toBeGreaterThanOrEqual(1);
  });
});
