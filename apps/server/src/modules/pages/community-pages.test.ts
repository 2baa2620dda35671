import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityPaths, type Post, type PostPage } from '@kathamala/domain';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
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

  it('answers the editors’ and admins’ pages (rendered for whoever opens them, not indexed)', async () => {
    for (const url of ['/community/reviews', '/community/admin']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
    }
  });
});
