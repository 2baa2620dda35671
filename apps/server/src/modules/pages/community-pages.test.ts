import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  BOOT_DATA_ID,
  campaignPaths,
  communityPaths,
  unpackBootData,
  type BootData,
  type CampaignSummary,
  type Post,
  type PostPage,
} from '@kathamala/domain';
import { createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { scriptJson } from './ssr.ts';

// These tests need the built web app (npm test builds it first), and the demo community.
let t: TestApp;
let feed: PostPage;
const page = (url: string) => t.app.inject({ url, headers: { accept: 'text/html' } });
const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/'/g, '&#x27;')
    .replace(/"/g, '&quot;');
const api = async <T>(url: string, token?: string, method = 'GET', payload?: object) =>
  (
    await t.app.inject({
      method: method as 'GET',
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    })
  ).json().object as T;

const BOOT = new RegExp(`<script type="application/json" id="${BOOT_DATA_ID}">(.*?)</script>`, 's');
/** A rendered page's boot data as the web app reads it, and its HTML without it. */
const bootOf = (html: string) => {
  const match = BOOT.exec(html)!;
  const boot = unpackBootData(JSON.parse(match[1]!) as BootData);
  return { data: boot.data, html: html.replace(match[0], '') };
};
/** A call's `object` as a visitor gets it, in the JSON the call sends. */
const visitorObject = async (url: string) => {
  const res = await t.app.inject({ url, headers: { accept: 'application/json' } });
  expect(res.statusCode, url).toBe(200);
  return JSON.stringify((JSON.parse(res.body) as { object: unknown }).object);
};
/** A reader past the holds on new accounts' first posts (moderation's tests cover those). */
const member = async (name: string) => {
  const token = await t.signup(name);
  await t.rows(
    sql`update users set created_at = now() - interval '2 days' where id = ${userOf(token)}`,
  );
  return token;
};

beforeAll(async () => {
  t = await createTestApp();
  feed = await api<PostPage>(communityPaths.feed(1));
});
afterAll(() => t.close());

describe('server-rendered community pages', () => {
  it('renders the feed with its posts in the HTML, their boot data, and a plain Older posts link', async () => {
    expect(feed.list.length).toBeGreaterThan(0);
    const res = await page('/community');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(scriptJson(communityPaths.feed(1)));
    const first = feed.list[0]!;
    expect(res.body).toContain(`>${escapeHtml(first.author.username)}<`);
    if (feed.hasNext) expect(res.body).toContain('href="/community?page=2"');
    expect(res.body).toContain('<link rel="canonical" href="http://kathamala.test/community"');
  });

  it('renders a later page and the pinned tab the address names', async () => {
    const second = await page('/community?page=2');
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain(scriptJson(communityPaths.feed(2)));
    const pinned = await page('/community?tab=pinned');
    expect(pinned.body).toContain(scriptJson(communityPaths.pinned(1)));
  });

  it('renders a post with share tags, and a post a visitor may not see as a 404 page', async () => {
    const post = feed.list.find((p) => p.text.trim())!;
    const res = await page(`/community/post/${post.postId}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      `<meta property="og:title" content="${escapeHtml(`Post by ${post.author.username} – Kathamala`)}" />`,
    );
    expect(res.body).toContain('<meta property="og:type" content="article" />');
    expect(res.body).toContain(scriptJson(communityPaths.postById(post.postId)));

    // A new account's post waits for review: nobody else has a page for it.
    const token = await t.signup('Newcomer');
    const held = await api<{ post: Post }>(communityPaths.post(), token, 'POST', {
      text: 'My first post',
    });
    expect(held.post.status).toBe('pending');
    expect((await page(`/community/post/${held.post.postId}`)).statusCode).toBe(404);
    expect((await page('/community/post/2147483648')).statusCode).toBe(404);
  });

  it('renders a profile at both addresses with its timeline, canonical at /profile/{id}/', async () => {
    const userId = feed.list[0]!.author.userId;
    for (const url of [`/profile/${userId}/`, `/community/profile/${userId}`]) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta property="og:type" content="profile" />');
      expect(res.body).toContain(
        `<link rel="canonical" href="http://kathamala.test/profile/${userId}/"`,
      );
      expect(res.body).toContain(scriptJson(communityPaths.timeline(userId, 1)));
    }
    expect((await page('/profile/999999/')).statusCode).toBe(404);
  });

  it("renders a post's text for a visitor, and a removed post as a 404 page", async () => {
    const writer = await member('Lantern Writer');
    const text = `A lantern over the paddy fields, seen from the bund ${Date.now()}`;
    const shown = await api<{ post: Post }>(communityPaths.post(), writer, 'POST', { text });
    expect(shown.post.status).toBe('approved');
    const gone = await api<{ post: Post }>(communityPaths.post(), writer, 'POST', {
      text: 'A post its writer takes back',
    });
    expect(gone.post.status).toBe('approved');

    const res = await page(`/community/post/${shown.post.postId}`);
    expect(res.statusCode).toBe(200);
    const { data, html } = bootOf(res.body);
    // In the rendered HTML itself, not only in the boot data.
    expect(html).toContain(escapeHtml(text));
    expect(data[communityPaths.postById(shown.post.postId)]).toMatchObject({ post: { text } });

    await api(communityPaths.removePost(gone.post.postId), writer, 'DELETE');
    expect((await page(`/community/post/${gone.post.postId}`)).statusCode).toBe(404);
  });

  it("keeps in the boot data the `object` each page's calls answer a visitor", async () => {
    const post = feed.list[0]!;
    const userId = post.author.userId;
    const { campaigns } = await api<{ campaigns: CampaignSummary[] }>(campaignPaths.list());
    const campaignId = (campaigns.find((c) => c.contest) ?? campaigns[0])?.campaignId;
    // The same bytes. Campaigns: the same values; a contest's rules come from a jsonb column,
    // whose keys the call writes in its schema's order and the service in the column's.
    const sameValues = (path: string) =>
      path.startsWith('/api/v1/campaign') || path.startsWith('/api/v1/stats/campaign');
    const pages: [string, string[]][] = [
      ['/community?page=1', [communityPaths.feed(1)]],
      ['/community?tab=pinned&page=1', [communityPaths.pinned(1)]],
      [
        `/community/post/${post.postId}?from=feed`,
        [communityPaths.postById(post.postId), communityPaths.comments(post.postId, 1)],
      ],
      [
        `/community/profile/${userId}?page=1`,
        [communityPaths.profile(userId), communityPaths.timeline(userId, 1)],
      ],
      ['/login?from=menu', ['/api/v1/auth/providers']],
      ['/campaigns?from=menu', [campaignPaths.list()]],
      ...(campaignId
        ? [
            [
              `/campaigns/${campaignId}?from=menu`,
              [campaignPaths.detail(campaignId), campaignPaths.stats(campaignId)],
            ] as [string, string[]],
          ]
        : []),
    ];
    for (const [url, paths] of pages) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      const { data } = bootOf(res.body);
      for (const path of paths) {
        const answered = await visitorObject(path);
        if (sameValues(path)) expect(data[path], path).toStrictEqual(JSON.parse(answered));
        else expect(JSON.stringify(data[path]), path).toBe(answered);
      }
    }
  });

  it('answers the editors’ and admins’ pages (rendered for whoever opens them, not indexed)', async () => {
    for (const url of ['/community/reviews', '/community/admin']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
    }
  });
});
