import http from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './support/hydrated.ts';
import { apiPaths, detailsPath, episodeFooter } from '@kathamala/domain';
import { AppShell } from './pages/AppShell.ts';
import { BASE_URL } from './playwright.config.ts';
import { AuthPage } from './pages/AuthPage.ts';
import { StoryPage } from './pages/StoryPage.ts';
import {
  allStories,
  findStory,
  firstParagraph,
  newReader,
  partByApi,
  signupByApi,
} from './support/api.ts';
import { useToken } from './support/session.ts';

test('a visitor joins from the wall and reads the story to its newest episode', async ({
  page,
  request,
}) => {
  const story = await findStory(
    request,
    (s) => s.kind === 0 && !s.membersOnly && s.numberOfparts >= 3,
    'free text story with three or more episodes',
  );
  const storyPage = new StoryPage(page);

  await storyPage.open(story.storyId);
  await expect(storyPage.title()).toHaveText(story.title);
  await expect(storyPage.visitorWall).toBeVisible();
  for (const name of ['Login', 'Join'] as const) {
    const href = await storyPage.wallLink(name).getAttribute('href');
    const url = new URL(href!, 'http://x');
    expect(url.pathname).toBe(name === 'Login' ? '/login' : '/signup');
    expect(url.searchParams.get('redirect')).toBe(detailsPath(story.storyId));
  }

  await storyPage.wallLink('Join').click();
  await expect(page).toHaveURL(/\/signup\?redirect=/);
  await new AuthPage(page).signup(newReader());
  await expect(page).toHaveURL(detailsPath(story.storyId));

  const token = await page.evaluate(() => localStorage.getItem('accesstoken'));
  expect(token).toBeTruthy();
  const part1 = await partByApi(request, token!, story.storyId, 1);
  await expect(page.locator('[data-episode-text]')).toBeVisible();
  await expect(page.getByText(firstParagraph(part1.part.content!))).toBeVisible();
  await expect(storyPage.visitorWall).toHaveCount(0);

  await storyPage.next();
  await expect(page).toHaveURL(detailsPath(story.storyId, 2));
  await expect(storyPage.episodeLabel).toHaveText(`Episode 2 of ${story.numberOfparts}`);

  await storyPage.newest();
  await expect(page).toHaveURL(detailsPath(story.storyId, story.numberOfparts));
  const last = await partByApi(request, token!, story.storyId, story.numberOfparts);
  await expect(page.getByText(firstParagraph(last.part.content!))).toBeVisible();
  const footer = episodeFooter(last.story);
  expect(footer).not.toBeNull();
  await expect(page.getByText(footer!, { exact: true })).toBeVisible();
});

test.describe('on a 375 px phone', () => {
  // A phone: mobile emulation makes the window as wide as the screen, as it is on a real one.
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('home has no sideways scroll and the story is comfortable to read', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const cards = page.getByRole('article');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThan(1);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(
      375,
    );

    const story = await findStory(
      request,
      (s) => s.kind === 0 && !s.membersOnly,
      'free text story',
    );
    const token = await signupByApi(request);
    const part = await partByApi(request, token, story.storyId, 1);
    await useToken(page, token);
    await page.goto(detailsPath(story.storyId));
    const paragraph = page.getByText(firstParagraph(part.part.content!));
    await expect(paragraph).toBeVisible();
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    const fontSize = await paragraph.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(18);
    const box = await paragraph.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  });
  test('home comes to life without a grapheme segmenter, its cards clamped by the stylesheet', async ({
    page,
    request,
  }) => {
    // Making a segmenter is a long task of its own on a phone's first load: the home page must
    // not need one (its cards' descriptions are cut by the stylesheet, not by script).
    await page.addInitScript(() => {
      const Real = Intl.Segmenter;
      const counted = window as unknown as { segmenters: number };
      counted.segmenters = 0;
      Object.defineProperty(Intl, 'Segmenter', {
        configurable: true,
        writable: true,
        value: class extends Real {
          constructor(...args: ConstructorParameters<typeof Real>) {
            super(...args);
            counted.segmenters++;
          }
        },
      });
    });
    await page.goto('/');
    expect(
      await page.evaluate(() => (window as unknown as { segmenters: number }).segmenters),
    ).toBe(0);

    // The card holds the story's whole description and shows its first two lines.
    const [story] = await allStories(request);
    const card = page
      .getByRole('article')
      .filter({ has: page.getByRole('link', { name: story!.title, exact: true }) })
      .first();
    const description = card.getByText(story!.description, { exact: true });
    await expect(description).toBeVisible();
    const lines = await description.evaluate((el) => ({
      shown: el.clientHeight / parseFloat(getComputedStyle(el).lineHeight),
      whole: el.scrollHeight / parseFloat(getComputedStyle(el).lineHeight),
    }));
    expect(Math.round(lines.shown)).toBe(2);
    expect(lines.whole).toBeGreaterThan(2);
  });

  /**
   * Records, from DOMContentLoaded on, every node added, removed or rewritten within `watched`
   * (a selector), and each `watched` element removed whole.
   */
  const watchChanges = (page: Page, watched: string) =>
    page.addInitScript((selector) => {
      const seen = { changes: [] as string[] };
      (window as unknown as { seen: typeof seen }).seen = seen;
      const describe = (n: Node) => `${n.nodeName}: ${n.textContent?.slice(0, 40)}`;
      document.addEventListener('DOMContentLoaded', () => {
        new MutationObserver((records) => {
          for (const r of records) {
            for (const gone of r.removedNodes)
              if (gone instanceof Element && gone.matches(selector))
                seen.changes.push(`removed ${describe(gone)}`);
            const where = r.target instanceof Element ? r.target : r.target.parentElement;
            if (where?.closest(selector)) seen.changes.push(`${r.type} in ${describe(where)}`);
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
    }, watched);
  const changesSeen = (page: Page) =>
    page.evaluate(() => (window as unknown as { seen: { changes: string[] } }).seen.changes);

  test("hydration leaves the home page's story cards and trending list as the server sent them", async ({
    page,
  }) => {
    // Every text node hydration rewrites is laid out again on a phone's first load.
    await watchChanges(page, 'article, section[aria-labelledby="trending-heading"]');
    await page.goto('/');
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await expect(page.getByRole('article').first()).toContainText(/READS/i);
    expect(await changesSeen(page)).toEqual([]);
  });

  test("a visitor's sign-up wall on a story page stays as the server sent it once the app knows the visitor", async ({
    page,
    request,
  }) => {
    // The wall is what a visitor from a search engine reads first: it must not be made again.
    const [story] = await allStories(request);
    await watchChanges(page, 'section[aria-labelledby="wall-title"]');
    await page.goto(detailsPath(story!.storyId));
    const wall = page.locator('section[aria-labelledby="wall-title"]');
    await expect(wall).toBeVisible();
    // Known to be a visitor: the reader's placeholder beside it is gone.
    await expect(wall).not.toHaveClass(/visitor-only/);
    await expect(page.locator('main .reader-only')).toHaveCount(0);
    await expect(wall.getByRole('link', { name: 'Join' })).toBeVisible();
    expect(await changesSeen(page)).toEqual([]);
  });

  test('the header is first painted whole, so nothing in it moves when the rest of the HTML arrives late', async ({
    page,
  }) => {
    // On a slow network the page's HTML comes in pieces, and the browser paints what it has
    // between them. Here a proxy holds the home page back in the middle of the header's menu
    // button; every other request goes straight through.
    const app = new URL(BASE_URL);
    const home = await fetch(BASE_URL + '/', { headers: { accept: 'text/html' } });
    const html = await home.text();
    const cut = html.indexOf('<summary');
    expect(cut).toBeGreaterThan(0);
    const proxy = http.createServer((req, res) => {
      if (req.url === '/') {
        const kept = ['content-type', 'content-security-policy', 'cache-control'];
        for (const name of kept) {
          const value = home.headers.get(name);
          if (value) res.setHeader(name, value);
        }
        res.write(html.slice(0, cut));
        setTimeout(() => res.end(html.slice(cut)), 600);
        return;
      }
      const upstream = http.request(
        {
          host: app.hostname,
          port: app.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      await page.addInitScript(() => {
        const seen = { shifts: [] as number[], menuAtFirstFrame: null as boolean | null };
        (window as unknown as { seen: typeof seen }).seen = seen;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries())
            seen.shifts.push((e as unknown as { value: number }).value);
        }).observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(
          () => (seen.menuAtFirstFrame = !!document.getElementById('menu-panel')),
        );
      });
      const { port } = proxy.address() as { port: number };
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await expect(page.getByRole('group', { name: 'Language' })).toBeVisible();
      const seen = await page.evaluate(
        () => (window as unknown as { seen: { shifts: number[]; menuAtFirstFrame: boolean } }).seen,
      );
      expect(seen.shifts).toEqual([]);
      expect(seen.menuAtFirstFrame).toBe(true);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

test('the Sinhala switch turns the UI Sinhala and the server keeps it after a reload', async ({
  page,
}) => {
  await page.goto('/');
  const shell = new AppShell(page);
  const nav = await shell.menu();
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();

  await shell.languageButton('සිං').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'si');
  await expect(nav.getByRole('link', { name: 'මුල් පිටුව' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'ප්‍රවර්ග' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('කතා');
  await expect(shell.languageButton('සිං')).toHaveAttribute('aria-pressed', 'true');

  const response = await page.reload();
  const html = await response!.text();
  expect(html).toContain('<html lang="si"');
  expect(html).toContain('මුල් පිටුව');
  await expect(page.locator('html')).toHaveAttribute('lang', 'si');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('කතා');
});

test('search finds a Sinhala story by its Sinhala title and an English one by its English title', async ({
  page,
  request,
}) => {
  const stories = await allStories(request);
  const sinhala = stories.find((s) => s.language === 'sinhala');
  const english = stories.find((s) => s.language === 'english');
  expect(sinhala, 'a Sinhala story in the demo data').toBeTruthy();
  expect(english, 'an English story in the demo data').toBeTruthy();

  await page.goto('/');
  const shell = new AppShell(page);
  for (const story of [sinhala!, english!]) {
    await shell.search(story.title);
    await expect(page).toHaveURL(/\/search\?q=/);
    const result = page.getByRole('article').getByRole('link', { name: story.title, exact: true });
    await expect(result).toBeVisible();
    await expect(result).toHaveAttribute('href', detailsPath(story.storyId));
  }
});

test('a logged-in reader without membership sees the subscription wall and no episode text', async ({
  page,
  request,
}) => {
  const story = await findStory(
    request,
    (s) => s.membersOnly && s.kind === 0,
    'members-only text story',
  ).catch(() => findStory(request, (s) => s.membersOnly, 'members-only story'));
  const token = await signupByApi(request);
  const answer = await request.get(apiPaths.part(story.storyId, 1), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(403);

  await useToken(page, token);
  const storyPage = new StoryPage(page);
  await storyPage.open(story.storyId);
  await expect(storyPage.subscriptionWall).toBeVisible();
  await expect(storyPage.subscriptionWall).toContainText('Rs.50');
  await expect(storyPage.subscriptionWall).toContainText('77100');
  await expect(storyPage.subscriptionWall).toContainText('77011');
  await expect(storyPage.episodeLabel).toHaveCount(0);
  await expect(page.locator('[data-episode-text]')).toHaveCount(0);

  // Joining starts with the mobile number (membership.spec.ts follows the code to the end).
  await expect(storyPage.subscriptionWall.getByLabel('Your mobile number')).toHaveAttribute(
    'type',
    'tel',
  );
  await expect(storyPage.subscriptionWall.getByRole('button', { name: 'Send code' })).toBeVisible();
});

test('logout ends the session: /login, and the story wall is back', async ({ page, request }) => {
  const account = newReader();
  await page.goto('/signup');
  await new AuthPage(page).signup(account);
  await expect(page).toHaveURL('/');
  const token = await page.evaluate(() => localStorage.getItem('accesstoken'));
  expect(token).toBeTruthy();

  await new AppShell(page).logout();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('accesstoken'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('loggedIn'))).toBeNull();

  // The old token no longer opens anything, and the page treats the reader as a visitor.
  const story = await findStory(request, (s) => s.kind === 0 && !s.membersOnly, 'free text story');
  const answer = await request.get(apiPaths.part(story.storyId, 1), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(401);
  const storyPage = new StoryPage(page);
  await storyPage.open(story.storyId);
  await expect(storyPage.visitorWall).toBeVisible();
  await expect(storyPage.episodeLabel).toHaveCount(0);
});
