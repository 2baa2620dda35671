import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { PRODUCT_APP_ID, apiPaths, maskMobile } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from './helpers.ts';
import type { CarrierSimulator } from '../adapters/simulator/simulator.ts';

/*
 * Who may touch another person's data (issue 11, Access): one table, every route that reads or
 * writes a person's own things, every kind of caller. The victim is one author, "owner", who
 * also reads: a story with a published and a draft part, a cover, a comment, a bookmark and
 * reading progress on another author's story, a Web Push subscription, a follow, a membership
 * with an SMS alert, a pending join code. Every other caller aims each call at the owner's
 * things; after each call the owner's rows must be exactly as before (0 cross-user writes), and
 * no answer may carry anything private of the owner's (0 cross-user reads). The owner's own
 * column is the control that the calls reach what they aim at.
 *
 * Editors: Kathamala has no editor role and no editor routes yet (comment reports wait in
 * comment_reports for a review tool that does not exist), so there is no editor column; when
 * that role comes, its column goes here.
 */

type Role = 'visitor' | 'reader' | 'member' | 'lapsed' | 'otherAuthor' | 'owner';
const ROLES: Role[] = ['visitor', 'reader', 'member', 'lapsed', 'otherAuthor', 'owner'];

let t: TestApp;
let sim: CarrierSimulator;
const tokens = {} as Record<Role, string | null>;

/** The owner's things the calls aim at. */
const own = {
  userId: 0,
  authorId: 0,
  email: '',
  storyId: 0,
  publishedId: 0,
  draftId: 0,
  commentId: 0,
  seriesId: 0,
  endpoint: '',
  refId: '',
  code: '',
  mobile: '',
  /** Another author's story the owner bookmarked and is reading. */
  readingId: 0,
  /** The other author's own story (to bind the owner's episode to). */
  otherStoryId: 0,
  /** A user the owner follows and nobody else does. */
  followedId: 0,
};
/** Text that only the owner (and the server) may ever see. */
const DRAFT_TEXT = `Draft words ${randomBytes(6).toString('hex')}`;
const DRAFT_TITLE = `Draft title ${randomBytes(6).toString('hex')}`;

let numbers = 0;
/** A second billing app, which the owner's pending code is for. */
const OTHER_APP = 'APP_ACCESS_MATRIX';
/** Joins the product app with a fresh number through the code flow; answers the number. */
async function join(token: string) {
  const mobile = `9477${String(3_000_000 + ++numbers).slice(-7)}`;
  const asked = await t.app.inject({
    method: 'POST',
    url: apiPaths.memberSubscribe(),
    headers: bearer(token),
    payload: { mobile: `0${mobile.slice(2)}`, appId: PRODUCT_APP_ID },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const verified = await t.app.inject({
    method: 'POST',
    url: apiPaths.memberVerify(),
    headers: bearer(token),
    payload: {
      mfaCode: sim.lastCode(mobile),
      appId: PRODUCT_APP_ID,
      refId: asked.json().object.refId,
    },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  await sim.idle();
  return mobile;
}

const call = (token: string | null, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });

/** A cover-sized PNG as a browser's multipart upload. */
async function coverForm() {
  const png = await sharp({
    create: { width: 320, height: 480, channels: 3, background: { r: 120, g: 40, b: 60 } },
  })
    .png()
    .toBuffer();
  const data = new FormData();
  data.append('image', new Blob([png], { type: 'image/png' }), 'cover.png');
  const res = new Response(data);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

/** Everything of the owner's that another caller could change, as one comparable text. */
async function ownersRows(): Promise<string> {
  const u = own.userId;
  const a = own.authorId;
  const part = (name: string, from: ReturnType<typeof sql>) =>
    sql`select ${name} as part, (select json_agg(r order by r::text) from (select to_jsonb(x) as r from ${from}) y) as rows`;
  const parts = [
    part('users', sql`users x where id = ${u}`),
    part('authors', sql`authors x where user_id = ${u}`),
    part('stories', sql`stories x where author_id = ${a}`),
    part('series', sql`series x where author_id = ${a}`),
    part(
      'episodes',
      sql`episodes x where story_id in (select id from stories where author_id = ${a})`,
    ),
    part('comments', sql`comments x where user_id = ${u}`),
    part('bookmarks', sql`bookmarks x where user_id = ${u}`),
    part('progress', sql`reading_progress x where user_id = ${u}`),
    part('push', sql`push_subscriptions x where user_id = ${u}`),
    part('follows', sql`follows x where follower_id = ${u}`),
    part('memberships', sql`subscriptions x where user_id = ${u}`),
    part('codes', sql`membership_codes x where user_id = ${u}`),
    part('alerts', sql`story_alerts x where user_id = ${u}`),
    part('sessions', sql`sessions x where user_id = ${u}`),
  ];
  const rows = await t.rows<{ part: string; rows: unknown }>(sql.join(parts, sql` union all `));
  return JSON.stringify(rows);
}

/** The parts of the owner's rows that differ, each with its rows before and after. */
function changed(before: string, after: string) {
  const was = JSON.parse(before) as { part: string; rows: unknown }[];
  const now = JSON.parse(after) as { part: string; rows: unknown }[];
  return now
    .filter((p, i) => JSON.stringify(p.rows) !== JSON.stringify(was[i]?.rows))
    .map((p) => ({
      part: p.part,
      before: was.find((w) => w.part === p.part)?.rows,
      after: p.rows,
    }));
}

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim = t.carrier.simulator!;

  // The owner: an author with a story (a published part, a draft part), a cover and a series.
  const owner = await t.newAuthor('Owner');
  tokens.owner = owner.token;
  own.userId = owner.userId;
  own.authorId = owner.authorId;
  own.storyId = await t.createStory(owner.token);
  own.publishedId = await t.publishEpisode(owner.token, own.storyId);
  const draft = await call(owner.token, 'POST', '/api/v1/author/publish/episode/webapp', {
    episode: {
      storyId: own.storyId,
      title: DRAFT_TITLE,
      content: `<p>${DRAFT_TEXT}</p>`,
      status: 'draft',
    },
  });
  expect(draft.statusCode, draft.body).toBe(200);
  own.draftId = draft.json().object.episodeId;
  const season2 = await t.createStory(owner.token, { seasonOf: own.storyId });
  const [s] = await t.rows<{ seriesId: number }>(
    sql`select series_id as "seriesId" from stories where id = ${season2}`,
  );
  own.seriesId = s!.seriesId;
  const form = await coverForm();
  const cover = await t.app.inject({
    method: 'POST',
    url: `/api/v1/upload-story-cover/upload/${own.storyId}`,
    payload: form.payload,
    headers: { ...form.headers, ...bearer(owner.token) },
  });
  expect(cover.statusCode, cover.body).toBe(200);

  // The other author, with a story the owner reads.
  const other = await t.newAuthor('Other');
  tokens.otherAuthor = other.token;
  own.otherStoryId = await t.createStory(other.token);
  await t.publishEpisode(other.token, own.otherStoryId);
  own.readingId = await t.createStory(other.token);
  await t.publishEpisode(other.token, own.readingId);
  own.followedId = userOf(await t.signup('Followed'));

  // The owner as a reader: comment, bookmark, progress, push, follow, membership, alert, a code.
  const me = await call(owner.token, 'GET', '/api/v1/user/me');
  own.email = me.json().object.email;
  const comment = await call(owner.token, 'POST', '/api/v1/story/comment/', {
    storyId: own.readingId,
    episodeId: (
      await t.rows<{ id: number }>(sql`select id from episodes where story_id = ${own.readingId}`)
    )[0]!.id,
    feedback: 'The owner says hello.',
    platform: 'web',
  });
  expect(comment.statusCode, comment.body).toBe(200);
  own.commentId = comment.json().object.comment.id ?? comment.json().object.comment.commentId;
  expect(
    (await call(owner.token, 'GET', `/api/v1/story/bookmark/${own.readingId}/1`)).statusCode,
  ).toBe(200);
  const progress = await call(owner.token, 'POST', '/api/v1/story/progress/', {
    storyId: own.readingId,
    partNumber: 1,
    position: 0.5,
  });
  expect(progress.statusCode, progress.body).toBe(200);
  // A real P-256 key (a random one is forgotten as unusable by the first push), and an
  // endpoint nothing listens on (a failed push keeps the subscription; tests allow http).
  own.endpoint = `http://127.0.0.1:9/push/owner-${randomBytes(8).toString('hex')}`;
  const p256dh = createECDH('prime256v1').generateKeys().toString('base64url');
  const push = await call(owner.token, 'POST', '/api/v1/push/subscription', {
    endpoint: own.endpoint,
    keys: { p256dh, auth: randomBytes(16).toString('base64url') },
  });
  expect(push.statusCode, push.body).toBe(200);
  const follow = await call(owner.token, 'PUT', '/api/v1/community/user/follow', {
    followed_id: own.followedId,
  });
  expect(follow.statusCode, follow.body).toBe(200);
  own.mobile = await join(owner.token);
  const alert = await call(owner.token, 'GET', `/api/v1/story/alert/${own.readingId}/`);
  expect(alert.json().object, alert.body).toEqual({ alertEnabled: true });
  // A second number waiting for its code to join another app: its refId and code are the
  // owner's secrets.
  await t.rows(
    sql`insert into billing_apps (app_id, name, keyword) values (${OTHER_APP}, 'Other', 'REG OTHERAPP')`,
  );
  sim.learnApps([{ appId: OTHER_APP, name: 'Other', keyword: 'REG OTHERAPP' }]);
  const pendingMobile = `9477${String(3_500_000 + ++numbers).slice(-7)}`;
  const asked = await call(owner.token, 'POST', apiPaths.memberSubscribe(), {
    mobile: `0${pendingMobile.slice(2)}`,
    appId: OTHER_APP,
  });
  expect(asked.statusCode, asked.body).toBe(200);
  own.refId = asked.json().object.refId;
  await sim.idle();
  own.code = sim.lastCode(pendingMobile)!;

  // The other callers.
  tokens.visitor = null;
  tokens.reader = await t.signup('Reader');
  tokens.member = await t.signup('Member');
  await join(tokens.member);
  tokens.lapsed = await t.signup('Lapsed');
  const lapsedMobile = await join(tokens.lapsed);
  sim.charge(PRODUCT_APP_ID, lapsedMobile, false);
  await sim.idle();
}, 180_000);

afterAll(async () => {
  await t?.close();
});

/** Expected status per caller; 'skip' where the call would change the owner's own things. */
type Row = {
  name: string;
  method: string;
  url: () => string;
  body?: () => object;
  upload?: boolean;
  expect: Record<Role, number | 'skip'>;
};

const LOGIN = 401;
/** A reader calling an author's route. */
const NOT_AUTHOR = 403;
/** The same status for every caller but the visitor (401). */
const all = (status: number, owner: number | 'skip' = status): Record<Role, number | 'skip'> => ({
  visitor: LOGIN,
  reader: status,
  member: status,
  lapsed: status,
  otherAuthor: status,
  owner,
});
/**
 * An author's route: readers are refused as non-authors (403), the other author as not the
 * owner: 403 "This story belongs to another author." where the id names a story or part of
 * the owner's, 404 where the call reads only the caller's own rows.
 */
const authoring = (other: number, owner: number | 'skip'): Record<Role, number | 'skip'> => ({
  visitor: LOGIN,
  reader: NOT_AUTHOR,
  member: NOT_AUTHOR,
  lapsed: NOT_AUTHOR,
  otherAuthor: other,
  owner,
});

const MATRIX: Row[] = [
  // Comments: only the writer removes; a report files a report, never changes the comment.
  {
    name: 'remove the owner’s comment',
    method: 'DELETE',
    url: () => '/api/v1/story/comment/',
    body: () => ({ storyId: own.readingId, commentId: own.commentId }),
    expect: all(403, 'skip'),
  },
  {
    name: 'report the owner’s comment',
    method: 'POST',
    url: () => '/api/v1/story/comment/report/',
    body: () => ({ commentId: own.commentId, reason: 'Spam, says the fuzzer.' }),
    expect: all(200, 400),
  },
  // Reading things: every list is the caller's own.
  {
    name: 'list bookmarks',
    method: 'GET',
    url: () => '/api/v1/story/bookmark/list',
    expect: all(200),
  },
  {
    name: 'bookmark (toggle) the story the owner bookmarked',
    method: 'GET',
    url: () => `/api/v1/story/bookmark/${own.readingId}/0`,
    expect: all(200, 'skip'),
  },
  {
    name: 'list reading progress',
    method: 'GET',
    url: () => '/api/v1/story/progress/list',
    expect: all(200),
  },
  {
    name: 'save progress in the story the owner reads',
    method: 'POST',
    url: () => '/api/v1/story/progress/',
    body: () => ({ storyId: own.readingId, partNumber: 1, position: 0.9 }),
    expect: all(200, 'skip'),
  },
  {
    name: 'list notifications',
    method: 'GET',
    url: () => '/api/v1/firebase/notifications/',
    expect: all(200),
  },
  {
    name: 'count unread notifications',
    method: 'GET',
    url: () => '/api/v1/firebase/notifications/unread',
    expect: all(200),
  },
  {
    name: 'remove the owner’s push subscription by its endpoint',
    method: 'DELETE',
    url: () => '/api/v1/push/subscription',
    body: () => ({ endpoint: own.endpoint }),
    expect: all(200, 'skip'),
  },
  // Authoring: the owner's lists, parts, drafts, story, series and cover.
  {
    name: 'list my stories (as an author)',
    method: 'GET',
    url: () => '/api/v1/author/story/list/webapp',
    expect: authoring(200, 200),
  },
  {
    name: 'list the owner’s story’s episodes',
    method: 'GET',
    url: () => `/api/v1/author/episodes/${own.storyId}/webapp`,
    expect: authoring(403, 200),
  },
  {
    name: 'read the owner’s draft',
    method: 'GET',
    url: () => `/api/v1/author/episode/${own.draftId}/webapp`,
    expect: authoring(403, 200),
  },
  {
    name: 'delete the owner’s draft',
    method: 'DELETE',
    url: () => `/api/v1/author/episode/${own.draftId}/webapp`,
    expect: authoring(403, 'skip'),
  },
  {
    name: 'edit the owner’s story',
    method: 'POST',
    url: () => '/api/v1/author/publish/story/webapp',
    body: () => ({ story: { storyId: own.storyId, title: 'Taken over' } }),
    expect: authoring(403, 'skip'),
  },
  {
    name: 'add a season to the owner’s series',
    method: 'POST',
    url: () => '/api/v1/author/publish/story/webapp',
    body: () => ({
      story: {
        title: 'Cuckoo season',
        description: 'x',
        language: 'english',
        kind: 0,
        category: 'mystery',
        membersOnly: false,
        ongoing: true,
        seriesId: own.seriesId,
      },
    }),
    expect: authoring(403, 'skip'),
  },
  {
    name: 'start a series with the owner’s story',
    method: 'POST',
    url: () => '/api/v1/author/publish/story/webapp',
    body: () => ({
      story: {
        title: 'Cuckoo series',
        description: 'x',
        language: 'english',
        kind: 0,
        category: 'mystery',
        membersOnly: false,
        ongoing: true,
        seasonOf: own.storyId,
      },
    }),
    expect: authoring(403, 'skip'),
  },
  {
    name: 'publish a part in the owner’s story',
    method: 'POST',
    url: () => '/api/v1/author/publish/episode/webapp',
    body: () => ({
      episode: { storyId: own.storyId, title: 'Cuckoo', content: '<p>x</p>', status: 'published' },
    }),
    expect: authoring(403, 'skip'),
  },
  {
    name: 'rewrite the owner’s published part',
    method: 'POST',
    url: () => '/api/v1/author/publish/episode/webapp',
    body: () => ({
      episode: {
        episodeId: own.publishedId,
        storyId: own.storyId,
        title: 'Rewritten',
        content: '<p>x</p>',
        status: 'published',
      },
    }),
    expect: authoring(403, 'skip'),
  },
  {
    name: 'move the owner’s part into the other author’s story',
    method: 'POST',
    url: () => '/api/v1/author/publish/episode/webapp',
    body: () => ({
      episode: {
        episodeId: own.publishedId,
        storyId: own.otherStoryId,
        title: 'Moved',
        content: '<p>x</p>',
        status: 'published',
      },
    }),
    expect: authoring(404, 'skip'),
  },
  {
    name: 'upload a cover for the owner’s story',
    method: 'POST',
    url: () => `/api/v1/upload-story-cover/upload/${own.storyId}`,
    upload: true,
    expect: authoring(403, 'skip'),
  },
  {
    name: 'statistics',
    method: 'GET',
    url: () => '/api/v1/stats/author/?period=all',
    expect: authoring(200, 200),
  },
  {
    name: 'statistics summary',
    method: 'GET',
    url: () => '/api/v1/stats/summaryV2/?period=all',
    expect: authoring(200, 200),
  },
  // Membership, alerts, follows, mail, the account.
  {
    name: 'membership details',
    method: 'GET',
    url: () => apiPaths.memberDetails(),
    expect: all(200),
  },
  {
    name: 'verify with the owner’s refId and code',
    method: 'POST',
    url: () => apiPaths.memberVerify(),
    body: () => ({ mfaCode: own.code, appId: OTHER_APP, refId: own.refId }),
    expect: all(404, 'skip'),
  },
  {
    name: 'toggle the alert of the story the owner has one on',
    method: 'GET',
    url: () => `/api/v1/story/alert/${own.readingId}/`,
    expect: { ...all(403, 'skip'), member: 200 },
  },
  {
    name: 'leave the product app',
    method: 'POST',
    url: () => apiPaths.memberUnsubscribe(),
    body: () => ({ appId: PRODUCT_APP_ID }),
    expect: { ...all(404, 'skip'), member: 200, lapsed: 200 },
  },
  {
    name: 'follow the user the owner follows',
    method: 'PUT',
    url: () => '/api/v1/community/user/follow',
    body: () => ({ followed_id: own.followedId }),
    expect: all(200, 'skip'),
  },
  {
    name: 'list whom I follow',
    method: 'GET',
    url: () => '/api/v1/community/user/following',
    expect: all(200),
  },
  {
    name: 'mailing-list status',
    method: 'GET',
    url: () => apiPaths.mailStatus(),
    expect: all(200),
  },
  { name: 'my account', method: 'GET', url: () => '/api/v1/user/me', expect: all(200) },
  {
    name: 'change my name',
    method: 'PATCH',
    url: () => '/api/v1/user/change-username',
    body: () => ({ username: `Renamed ${randomBytes(3).toString('hex')}` }),
    expect: all(200, 'skip'),
  },
];

/** Whatever the owner keeps private, as it would appear in an answer. */
const privateMarks = () => [
  own.email,
  DRAFT_TEXT,
  DRAFT_TITLE,
  own.endpoint,
  own.refId,
  own.mobile,
  maskMobile(own.mobile),
];

/** Lists in an answer that must hold none of the owner's things (ids of stories or users). */
function leaks(row: Row, role: Role, body: string): string | null {
  if (role === 'owner') return null;
  const mark = privateMarks().find((m) => m && body.includes(m));
  if (mark) return `the answer holds the owner's ${mark}`;
  const json = JSON.parse(body) as { object?: Record<string, unknown> };
  const text = JSON.stringify(json.object ?? {});
  if (row.name === 'list my stories (as an author)' && text.includes(`"storyId":${own.storyId}`))
    return 'the owner’s story in another author’s list';
  if (row.name.startsWith('statistics') && text.includes(`"storyId":${own.storyId}`))
    return 'the owner’s story in another author’s statistics';
  return null;
}

const cells = MATRIX.flatMap((row) =>
  ROLES.filter((role) => row.expect[role] !== 'skip').map((role) => ({
    row,
    role,
    status: row.expect[role] as number,
  })),
);

describe('role x resource: another person’s data', () => {
  it('names every caller in every row', () => {
    for (const row of MATRIX) expect(Object.keys(row.expect).sort()).toEqual([...ROLES].sort());
  });

  it('sees the owner’s things (the check below is not empty)', async () => {
    const rows = await ownersRows();
    for (const mark of [own.endpoint, own.refId, DRAFT_TITLE, DRAFT_TEXT, own.mobile, own.email])
      expect(rows).toContain(mark);
  });

  it.each(cells.map((c) => [`${c.row.name} / ${c.role}: ${c.status}`, c] as const))(
    '%s',
    async (_name, { row, role, status }) => {
      const before = await ownersRows();
      const token = tokens[role];
      let res;
      if (row.upload) {
        const form = await coverForm();
        res = await t.app.inject({
          method: 'POST',
          url: row.url(),
          payload: form.payload,
          headers: { ...form.headers, ...(token ? bearer(token) : {}) },
        });
      } else {
        res = await call(token, row.method, row.url(), row.body?.());
      }
      expect(res.statusCode, res.body).toBe(status);
      if (status >= 400)
        expect(res.json()).toEqual({ code: expect.any(Number), message: expect.any(String) });
      expect(leaks(row, role, res.body)).toBeNull();
      // 0 cross-user writes: the owner's rows are as they were.
      if (role !== 'owner') expect(changed(before, await ownersRows())).toEqual([]);
    },
  );
});

describe('the check itself', () => {
  it('sees a write to the owner’s things (the owner saving progress)', async () => {
    const before = await ownersRows();
    const res = await call(tokens.owner, 'POST', '/api/v1/story/progress/', {
      storyId: own.readingId,
      partNumber: 1,
      position: 0.75,
    });
    expect(res.statusCode).toBe(200);
    expect(await ownersRows()).not.toBe(before);
  });
});
