import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  coverUrl,
  episodePlainText,
  STORY_MESSAGES,
  type StoryListItem,
} from '@kathamala/domain';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { scriptJson } from './ssr.ts';

// These tests need the built web app (npm test builds it first).
let t: TestApp;
let stories: StoryListItem[];
const page = (url: string, cookie?: string) =>
  t.app.inject({ url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/'/g, '&#x27;')
    .replace(/"/g, '&quot;');
const contains = (html: string, text: string) =>
  html.includes(text) || html.includes(escapeHtml(text));

beforeAll(async () => {
  t = await createTestApp();
  stories = (await t.app.inject(apiPaths.listV2())).json().object.stories;
});
afterAll(() => t.close());

describe('server-rendered public pages', () => {
  it('renders the home page with story titles in the HTML and boot data for hydration', async () => {
    const res = await page('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const s of stories.slice(0, 3)) expect(contains(res.body, s.title)).toBe(true);
    expect(res.body).toContain('<script type="application/json" id="kathamala-boot">');
    expect(res.body).toMatch(/<link rel="canonical" href="http:\/\/kathamala.test\/"/);
  });

  it('renders the list the address asks for: another sort, a later page, a category', async () => {
    const listed = async (q: Parameters<typeof apiPaths.listV2>[0]) =>
      (await t.app.inject(apiPaths.listV2(q))).json().object as {
        stories: StoryListItem[];
        total: number;
      };
    const loading = 'Loading…';
    // A shared link to the newest stories shows them, in that order, with nothing left to load.
    const newest = await listed({ sortBy: 'new' });
    const byNew = await page('/?sort=new');
    expect(byNew.body).toContain(scriptJson(apiPaths.listV2({ sortBy: 'new' })));
    expect(byNew.body).not.toContain(loading);
    // A title as the whole text of an element (a card's heading). Its first mention anywhere
    // is in the boot data, whose lists come in an order of their own (on PostgreSQL other
    // tests' stories share the database), and one title may hold another ("The Monsoon House").
    const at = (title: string) => byNew.body.indexOf(`>${escapeHtml(title)}<`);
    const [first, second] = newest.stories.map((s) => at(s.title));
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first!);
    // Past the last page: the empty list's words in the HTML, not a loading grid.
    const beyond = await page('/?page=999&status=false');
    expect(beyond.body).toContain('No stories here yet.');
    expect(beyond.body).not.toContain(loading);
    // A category's page lists that category, by rating, whatever sort the address adds.
    const category = stories[0]!.category;
    const inCategory = await listed({ category });
    const shown = await page(`/category?c=${category}&sort=new`);
    expect(shown.body).toContain(scriptJson(apiPaths.listV2({ category })));
    for (const s of inCategory.stories.slice(0, 3))
      expect(contains(shown.body, s.title)).toBe(true);
    expect(shown.body).not.toContain(loading);
  });

  it('renders a story page with its text, Open Graph and Twitter tags and the cover', async () => {
    const s = stories.find((x) => x.language === 'english')!;
    const res = await page(`/details/${s.storyId}/`);
    expect(res.statusCode).toBe(200);
    expect(contains(res.body, s.title)).toBe(true);
    expect(contains(res.body, s.description.slice(0, 40))).toBe(true);
    expect(res.body).toMatch(/<meta property="og:title" content="[^"]+"/);
    expect(res.body).toContain(
      `<meta property="og:image" content="${coverUrl('http://kathamala.test/images', s.storyId)}"`,
    );
    expect(res.body).toMatch(/<meta name="twitter:card" content="summary_large_image"/);
    expect(res.body).toContain(`href="http://kathamala.test/details/${s.storyId}/"`);
    // The visitor's wall links carry the redirect back to the story.
    expect(res.body).toContain(`redirect=${encodeURIComponent(`/details/${s.storyId}/`)}`);
  });

  it("carries the first load's styles inline, and links a lazy page's own", async () => {
    const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const linked = (html: string) =>
      [...html.matchAll(/<link rel="stylesheet" href="(\/assets\/[^"]+\.css)">/g)].map(
        (m) => m[1]!,
      );
    const home = (await page('/')).body;
    expect(styleOf(home).length).toBeGreaterThan(10_000);
    expect(linked(home)).toEqual([]);
    // The statistics page's own CSS is not in every page: it comes linked with that page.
    const statistics = (await page('/statistics/')).body;
    const own = linked(statistics);
    expect(own.length).toBeGreaterThan(0);
    for (const href of own) {
      const css = await t.app.inject(href);
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toContain('text/css');
      expect(home).not.toContain(css.body.slice(0, 200));
    }
  });

  it("holds the first paint for the whole header, and sends none of index.html's comments", async () => {
    const home = (await page('/')).body;
    // The first paint waits for the header's last part, so it is never painted half laid out.
    const expected = /<link rel="expect" href="#([\w-]+)" blocking="render"/.exec(home)?.[1];
    expect(expected).toBeDefined();
    const header = /<header[\s\S]*?<\/header>/.exec(home)?.[0] ?? '';
    expect(header).toContain(`id="${expected}"`);
    // Comments with words in them are ours, for us; Preact's hydration markers are `<!--$s-->`.
    expect(home).not.toMatch(/<!--\s*\w+\s+\w+/);
  });

  it('marks Sinhala story text with lang="si"', async () => {
    const s = stories.find((x) => x.language === 'sinhala');
    expect(s).toBeDefined();
    const res = await page(`/details/${s!.storyId}/`);
    expect(res.body).toMatch(/lang="si"[^>]*>[^<]*\S/);
    expect(contains(res.body, s!.title)).toBe(true);
  });

  it('answers 404 for a missing story and an unknown page, still as a page', async () => {
    const missing = await page('/details/999999/');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
    const unknown = await page('/no-such-page');
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 404 with the not-found page for a part past the last, as for part 0', async () => {
    const s = stories.find((x) => x.numberOfparts >= 2)!;
    const last = await page(`/details/${s.storyId}/${s.numberOfparts}/`);
    expect(last.statusCode).toBe(200);
    for (const url of [
      `/details/${s.storyId}/${s.numberOfparts + 1}/`,
      `/details/${s.storyId}/0/`,
    ]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('Page not found');
      expect(res.body).toContain('<meta name="robots" content="noindex"');
      expect(res.body).not.toContain('We could not load this episode');
      expect(res.body).not.toContain('aria-label="Episodes"');
    }
  });

  it("renders an upcoming story's release date and why it cannot be read yet, with no pager", async () => {
    const [upcoming] = (await t.app.inject(apiPaths.upcoming())).json().object.upcomingStories as {
      storyId: number;
      releaseDate: string;
    }[];
    const res = await page(`/details/${upcoming!.storyId}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(STORY_MESSAGES.notOutYet);
    expect(res.body).toContain(`datetime="${upcoming!.releaseDate}"`);
    expect(res.body).toMatch(/Out on \d{1,2} \w+ \d{4}/);
    expect(res.body).not.toContain('We could not load this episode');
    expect(res.body).not.toContain('aria-label="Episodes"');
    expect(res.body).not.toContain('Log in to keep reading');
    const si = await page(`/details/${upcoming!.storyId}/`, 'lang=si');
    expect(si.body).toContain('මෙම කතාව තවම පළ වී නැත.');
  });

  it("renders a free story's opening of part 1 above the visitor's wall, and no more", async () => {
    const s = stories.find((x) => x.language === 'english' && !x.membersOnly)!;
    const preview = (await t.app.inject(apiPaths.preview(s.storyId))).json().object;
    const opening = episodePlainText(preview.part.opening);
    const res = await page(`/details/${s.storyId}/`);
    const html = res.body.slice(res.body.indexOf('<body'));
    const shown = html.indexOf('data-opening');
    expect(shown).toBeGreaterThan(0);
    // Its first and last sentences are in the page's text, before the wall.
    const lastSentence = opening.split(/(?<=\.)\s/).at(-1)!;
    expect(contains(html, opening.slice(0, 50))).toBe(true);
    expect(contains(html, lastSentence)).toBe(true);
    expect(html.indexOf('Log in to keep reading')).toBeGreaterThan(shown);
    // A members-only story: its description, then the wall, and no opening.
    const members = stories.find((x) => x.membersOnly)!;
    const locked = (await page(`/details/${members.storyId}/`)).body;
    expect(locked).not.toContain('data-opening');
    expect(locked).toContain('This story is for members. Log in, or join Kathamala free');
  });

  it('renders an author page with the name, share tags and stories; 404 for an unknown author', async () => {
    const s = stories[0]!;
    const { authorId, name } = s.author;
    const res = await page(`/author/${authorId}/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(contains(res.body, name)).toBe(true);
    expect(res.body).toMatch(
      new RegExp(`<meta property="og:title" content="${escapeHtml(name)}[^"]*"`),
    );
    expect(res.body).toContain(`href="http://kathamala.test/author/${authorId}/"`);
    expect(res.body).toContain(`href="/details/${s.storyId}/"`);
    expect((await page(`/author/${authorId}`)).statusCode).toBe(200);

    // The story page links to its author.
    expect((await page(`/details/${s.storyId}/`)).body).toContain(`href="/author/${authorId}/"`);

    for (const url of ['/author/999999/', '/author/99999999999/']) {
      const missing = await page(url);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type']).toContain('text/html');
    }
  });

  it('renders the leaderboard the address names, with its authors, share tags and boot data', async () => {
    const board = (
      await t.app.inject(apiPaths.statsAuthors({ by: 'rating', period: 'all' }))
    ).json().object as { authors: { authorId: number; name: string }[] };
    expect(board.authors.length).toBeGreaterThan(0);
    const res = await page('/leaderboard/?by=rating&period=all');
    expect(res.statusCode).toBe(200);
    for (const a of board.authors) {
      expect(contains(res.body, a.name)).toBe(true);
      expect(res.body).toContain(`href="${apiPaths.authorPage(a.authorId)}"`);
    }
    expect(res.body).toContain(
      '<link rel="canonical" href="http://kathamala.test/leaderboard/?by=rating&amp;period=all"',
    );
    expect(res.body).toMatch(/<meta property="og:image" content="[^"]+story_cover_\d+\.png"/);
    expect(res.body).toContain(scriptJson(apiPaths.statsAuthors({ by: 'rating', period: 'all' })));
    // An unknown choice is the default board, not an error.
    const fallback = await page('/leaderboard/?by=popularity');
    expect(fallback.statusCode).toBe(200);
    expect(fallback.body).toContain(scriptJson(apiPaths.statsAuthors()));
  });

  it('renders the author-only pages as known pages (the browser decides who may see them)', async () => {
    for (const url of ['/statistics/', '/publish/story/']) {
      expect((await page(url)).statusCode, url).toBe(200);
    }
  });

  it('renders in Sinhala when the language cookie says so', async () => {
    const res = await page('/', 'lang=si');
    expect(res.body).toMatch(/<html lang="si"/);
  });

  it('sends a rendered page again from memory: same bytes and ETag, 304, br and gzip', async () => {
    const url = `/?edge=${Date.now()}`;
    // Readers arriving together share one rendering.
    const together = await Promise.all([1, 2, 3, 4].map(() => page(url)));
    for (const res of together) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(together[0]!.body);
      expect(res.headers.etag).toBe(together[0]!.headers.etag);
    }
    const first = together[0]!;
    expect(first.headers.etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(first.headers.vary).toBe('Cookie, accept-encoding');
    const etag = String(first.headers.etag);
    const current = await t.app.inject({
      url,
      headers: { accept: 'text/html', 'if-none-match': etag },
    });
    expect(current.statusCode).toBe(304);
    expect(current.body).toBe('');
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({
        url,
        headers: { accept: 'text/html', 'accept-encoding': encoding },
      });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.rawPayload).toString('utf8')).toBe(first.body);
    }
    // The Sinhala page is another entry.
    expect((await page(url, 'lang=si')).body).toMatch(/<html lang="si"/);
  });

  it('serves robots.txt, a sitemap of the stories, the manifest and the favicon', async () => {
    const robots = await t.app.inject('/robots.txt');
    expect(robots.body).toContain('Sitemap: http://kathamala.test/sitemap.xml');
    const sitemap = await t.app.inject('/sitemap.xml');
    for (const s of stories) expect(sitemap.body).toContain(`/details/${s.storyId}/</loc>`);
    for (const s of stories) expect(sitemap.body).toContain(`/author/${s.author.authorId}/</loc>`);
    expect(sitemap.body).toContain('http://kathamala.test/leaderboard/</loc>');
    expect((await t.app.inject('/manifest.webmanifest')).statusCode).toBe(200);
    expect((await t.app.inject('/favicon.svg')).statusCode).toBe(200);
  });

  it('serves a real PNG cover for every story', async () => {
    for (const s of stories) {
      const res = await t.app.inject(`/images/story_cover_${s.storyId}.png`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(
      (await t.app.inject('/images/story_cover_../../etc.png')).statusCode,
    ).toBeGreaterThanOrEqual(400);
  });
});
