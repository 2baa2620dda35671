import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { communityPaths as paths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';

/*
 * Who may make each community call (issue 28, Who may), in the style of the membership matrix:
 * every call against every kind of caller, over real HTTP to the listening server. The target
 * is always the owner's: their post, their picture, their profile. Visitors read the public
 * feed, posts and profiles; every other call needs login; another's post, image or profile is
 * 403; editors' calls are 403 for readers and authors, and admins pass every editor check. A
 * refused call changes nothing of the owner's (their posts, pictures, profile and role).
 */

type Caller = 'visitor' | 'reader' | 'owner' | 'author' | 'editor' | 'admin';
const CALLERS: Caller[] = ['visitor', 'reader', 'owner', 'author', 'editor', 'admin'];

let t: TestApp;
let base = '';
const tokens = {} as Record<Caller, string | null>;
let ownerId = 0;
let otherId = 0;
let picture: Buffer;

/** A fresh post of the owner's (made in SQL: the owner's posting pace is not under test). */
const ownersPost = async () => {
  const [row] = await t.rows<{ id: number }>(sql`
    insert into community_posts (user_id, body) values (${ownerId}, 'The owner’s words')
    returning id`);
  return Number(row!.id);
};
const ownersImage = async (postId: number) => {
  const [row] = await t.rows<{ id: number }>(sql`
    insert into community_images (user_id, post_id, version, width, height)
    values (${ownerId}, ${postId}, '0123456789abcdef', 320, 240) returning id`);
  return Number(row!.id);
};

/** Everything of the owner's a call could change, as one text. */
const ownersState = async () =>
  JSON.stringify(
    await t.rows(sql`
      select (select json_agg(p order by p.id) from (select id, body, status, status_reason,
          pinned_at, hidden_at, edited_at from community_posts where user_id = ${ownerId}) p) as posts,
        (select json_agg(i order by i.id) from (select id, post_id from community_images
          where user_id = ${ownerId}) i) as images,
        (select row_to_json(pr) from community_profiles pr where pr.user_id = ${ownerId}) as profile,
        (select role from users where id = ${ownerId}) as role,
        (select role from users where id = ${otherId}) as other_role`),
  );

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: object;
  /** Sent as multipart with the picture in the field `image`. */
  upload?: true;
}

const send = async (caller: Caller, r: Request) => {
  const headers: Record<string, string> = tokens[caller] ? bearer(tokens[caller]!) : {};
  let body: FormData | string | undefined;
  if (r.upload) {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(picture)], { type: 'image/jpeg' }), 'a.jpg');
    body = form;
  } else if (r.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(r.body);
  }
  const res = await fetch(`${base}${r.url}`, { method: r.method, headers, body });
  const text = await res.text();
  return { status: res.status, text };
};

/** One call: how to make it (a fresh target each time) and what each caller gets. */
interface Row {
  name: string;
  request: () => Promise<Request>;
  expect: Record<Caller, number>;
}

const all = (status: number): Record<Caller, number> => ({
  visitor: status,
  reader: status,
  owner: status,
  author: status,
  editor: status,
  admin: status,
});
/** Anyone logged in; visitors 401. */
const loggedIn = { ...all(200), visitor: 401 };
/** The owner only: others 403, visitors 401. */
const ownerOnly = { ...all(403), visitor: 401, owner: 200 };
/** Editors and admins only. */
const editors = { ...all(403), visitor: 401, editor: 200, admin: 200 };

const ROWS: Row[] = [
  {
    name: 'GET community/user',
    request: async () => ({ method: 'GET', url: paths.me() }),
    expect: loggedIn,
  },
  {
    name: 'PUT community/user/role',
    request: async () => ({
      method: 'PUT',
      url: paths.role(),
      body: { id: otherId, role: 'editor' },
    }),
    expect: { ...all(403), visitor: 401, admin: 200 },
  },
  {
    name: 'GET community/audit',
    request: async () => ({ method: 'GET', url: paths.audit() }),
    expect: { ...all(403), visitor: 401, admin: 200 },
  },
  {
    name: 'POST community/user/post',
    request: async () => ({ method: 'POST', url: paths.post(), body: { text: 'Hello' } }),
    expect: loggedIn,
  },
  {
    name: 'PUT community/user/post (the owner’s)',
    request: async () => ({
      method: 'PUT',
      url: paths.post(),
      body: { post_id: await ownersPost(), text: 'Changed' },
    }),
    expect: ownerOnly,
  },
  {
    name: 'GET community/post/{id}',
    request: async () => ({ method: 'GET', url: paths.postById(await ownersPost()) }),
    expect: all(200),
  },
  {
    name: 'DELETE community/post/{id} (the owner’s)',
    request: async () => ({
      method: 'DELETE',
      url: paths.removePost(await ownersPost(), 'Off topic'),
    }),
    expect: { ...all(403), visitor: 401, owner: 200, editor: 200, admin: 200 },
  },
  {
    name: 'GET community/feed',
    request: async () => ({ method: 'GET', url: paths.feed() }),
    expect: all(200),
  },
  {
    name: 'GET community/feed/pinned',
    request: async () => ({ method: 'GET', url: paths.pinned() }),
    expect: all(200),
  },
  {
    name: 'GET community/feed/{id}',
    request: async () => ({ method: 'GET', url: paths.feedPost(await ownersPost()) }),
    expect: all(200),
  },
  {
    name: 'GET community/user/profile/{id}/timeline',
    request: async () => ({ method: 'GET', url: paths.timeline(ownerId) }),
    expect: all(200),
  },
  {
    name: 'GET feed/list',
    request: async () => ({ method: 'GET', url: paths.personalFeed() }),
    expect: loggedIn,
  },
  {
    name: 'PUT community/post/like',
    request: async () => ({
      method: 'PUT',
      url: paths.like(),
      body: { post_id: await ownersPost() },
    }),
    expect: loggedIn,
  },
  {
    name: 'GET community/post/liked',
    request: async () => ({ method: 'GET', url: paths.liked([1, 2]) }),
    expect: loggedIn,
  },
  {
    name: 'POST community/post/share',
    request: async () => ({
      method: 'POST',
      url: paths.share(),
      body: { post_id: await ownersPost() },
    }),
    expect: loggedIn,
  },
  {
    name: 'POST community/post/comment',
    request: async () => ({
      method: 'POST',
      url: paths.comment(),
      body: { post_id: await ownersPost(), comment: 'Nice' },
    }),
    expect: loggedIn,
  },
  {
    name: 'GET community/post/comments',
    request: async () => ({ method: 'GET', url: paths.comments(await ownersPost()) }),
    expect: all(200),
  },
  {
    name: 'GET community/user/profile/{id}',
    request: async () => ({ method: 'GET', url: paths.profile(ownerId) }),
    expect: all(200),
  },
  {
    name: 'PUT community/user/profile (one’s own)',
    request: async () => ({ method: 'PUT', url: paths.ownProfile(), body: { bio: 'Mine' } }),
    expect: loggedIn,
  },
  {
    name: 'PUT community/user/follow (the owner)',
    request: async () => ({
      method: 'PUT',
      url: paths.follow(),
      body: { followed_id: ownerId, following: true },
    }),
    expect: { ...loggedIn, owner: 400 },
  },
  {
    name: 'PUT community/post/{post_id}/pin',
    request: async () => ({ method: 'PUT', url: paths.pin(await ownersPost()) }),
    expect: editors,
  },
  {
    name: 'GET community/user/notifications',
    request: async () => ({ method: 'GET', url: paths.notifications() }),
    expect: loggedIn,
  },
  {
    name: 'GET community/user/mentions',
    request: async () => ({ method: 'GET', url: paths.mentions() }),
    expect: loggedIn,
  },
  {
    name: 'POST community/image/upload/post/new',
    request: async () => ({ method: 'POST', url: paths.imageUpload('post', 'new'), upload: true }),
    expect: loggedIn,
  },
  {
    name: 'POST community/image/upload/post/{the owner’s}',
    request: async () => ({
      method: 'POST',
      url: paths.imageUpload('post', await ownersPost()),
      upload: true,
    }),
    expect: ownerOnly,
  },
  {
    name: 'POST community/image/upload/profile/{the owner}',
    request: async () => ({
      method: 'POST',
      url: paths.imageUpload('profile', ownerId),
      upload: true,
    }),
    expect: ownerOnly,
  },
  {
    name: 'DELETE community/image/post/{the owner’s}',
    request: async () => {
      const postId = await ownersPost();
      return { method: 'DELETE', url: paths.image('post', postId, await ownersImage(postId)) };
    },
    expect: ownerOnly,
  },
  {
    name: 'DELETE community/image/profile/{the owner}',
    request: async () => ({ method: 'DELETE', url: paths.image('profile', ownerId) }),
    expect: ownerOnly,
  },
];

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  picture = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#884422' } })
    .jpeg()
    .toBuffer();

  tokens.visitor = null;
  tokens.reader = await t.signup('Matrix Reader');
  tokens.owner = await t.signup('Matrix Owner');
  tokens.author = (await t.newAuthor('Matrix Author')).token;
  tokens.editor = await t.signup('Matrix Editor');
  tokens.admin = await t.signup('Matrix Admin');
  const other = await t.signup('Matrix Other');
  ownerId = userOf(tokens.owner);
  otherId = userOf(other);
  // Old enough that new accounts' holds (moderation) do not apply.
  await t.rows(sql`update users set created_at = now() - interval '2 days'`);
  await t.rows(sql`update users set role = 'editor' where id = ${userOf(tokens.editor)}`);
  await t.rows(sql`update users set role = 'admin' where id = ${userOf(tokens.admin)}`);
});
afterAll(() => t.close());

describe('community access matrix', () => {
  it('answers each call as the matrix says, and a refusal changes nothing of the owner’s', async () => {
    const wrong: string[] = [];
    for (const row of ROWS)
      for (const caller of CALLERS) {
        const request = await row.request();
        const before = await ownersState();
        const res = await send(caller, request);
        if (res.status !== row.expect[caller])
          wrong.push(
            `${row.name} as ${caller}: ${res.status}, expected ${row.expect[caller]} (${res.text.slice(0, 120)})`,
          );
        if (res.status >= 400) {
          expect(JSON.parse(res.text).message.length, `${row.name} as ${caller}`).toBeGreaterThan(
            10,
          );
          if ((await ownersState()) !== before)
            wrong.push(`${row.name} as ${caller}: refused but changed the owner’s things`);
        }
        // The role granted by the admin goes back, so each cell starts from the same roles.
        if (row.name === 'PUT community/user/role')
          await t.rows(sql`update users set role = 'reader' where id = ${otherId}`);
      }
    expect(wrong).toEqual([]);
  });
});
