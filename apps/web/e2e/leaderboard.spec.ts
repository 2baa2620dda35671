import { expect, test, type Page } from './support/hydrated.ts';
import { apiPaths, type AuthorRankings, type LeaderboardBy } from '@kathamala/domain';
import { signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

/*
 * The author leaderboard. The demo seed records no views, so the boards these journeys look
 * at are all time (seeded reads) and by rating (the demo raters' votes); other journeys may
 * add ratings, so every expected order is read from the API in the same run.
 */

const board = async (
  request: import('@playwright/test').APIRequestContext,
  by: LeaderboardBy,
): Promise<AuthorRankings> => {
  const res = await request.get(apiPaths.statsAuthors({ by, period: 'all' }));
  expect(res.status()).toBe(200);
  return ((await res.json()) as { object: AuthorRankings }).object;
};

/** The author names down the board, as the page lists them. */
const namesOnPage = (page: Page) =>
  page
    .getByRole('list', { name: /authors/ })
    .getByRole('listitem')
    .getByRole('link')
    .allTextContents();

test('the rankings are in the server-rendered page, before any script runs', async ({
  browser,
  request,
}) => {
  const reads = await board(request, 'reads');
  expect(reads.authors.length).toBeGreaterThan(1);

  // The HTML itself carries the names, each linking to the author's page, and the share tags.
  const res = await request.get('/leaderboard/?period=all', { headers: { accept: 'text/html' } });
  expect(res.status()).toBe(200);
  const html = await res.text();
  for (const author of reads.authors) {
    expect(html).toContain(author.name);
    expect(html).toContain(`href="${apiPaths.authorPage(author.authorId)}"`);
  }
  expect(html).toContain('<link rel="canonical" href="');
  expect(html).toMatch(/<meta property="og:image" content="[^"]+story_cover_\d+\.png"/);
  expect(html).toContain(`1. ${reads.authors[0]!.name}`);

  // With scripts off the page reads the same, and the switch is plain links.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/leaderboard/?period=all');
  await expect(page.getByRole('heading', { name: 'Leaderboard', level: 1 })).toBeVisible();
  expect(await namesOnPage(page)).toEqual(reads.authors.map((a) => a.name));
  await expect(page.getByRole('link', { name: 'All time' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await context.close();
});

test('switching to rating from the keyboard reorders the board and keeps the choice in the address', async ({
  page,
  request,
}) => {
  const [reads, rating] = [await board(request, 'reads'), await board(request, 'rating')];
  const readsOrder = reads.authors.map((a) => a.name);
  const ratingOrder = rating.authors.map((a) => a.name);
  // The demo's seeded reads and ratings put the authors in different orders.
  expect(ratingOrder).not.toEqual(readsOrder);

  await page.goto('/leaderboard/?period=all');
  await expect(page.getByRole('heading', { name: /Most read authors/ })).toBeVisible();
  expect(await namesOnPage(page)).toEqual(readsOrder);

  const ratingLink = page
    .getByRole('navigation', { name: 'Rank by' })
    .getByRole('link', { name: 'Rating' });
  await ratingLink.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/leaderboard\/\?by=rating&period=all$/);
  await expect(page.getByRole('heading', { name: /Highest rated authors/ })).toBeVisible();
  await expect(page.locator('ol[data-by="rating"]')).toBeVisible();
  expect(await namesOnPage(page)).toEqual(ratingOrder);
  await expect(ratingLink).toHaveAttribute('aria-current', 'page');

  // Each row says its move in words, not only with an arrow.
  const first = page
    .getByRole('list', { name: /authors/ })
    .getByRole('listitem')
    .first();
  await expect(first).toContainText(/Position 1/);
  await expect(first).toContainText(
    /(Up|Down) \d+ places? since a week ago|Same place as a week ago|New: not ranked a week ago/,
  );
});

test('a reader sees the authors they follow marked, and only those', async ({ page, request }) => {
  const rating = await board(request, 'rating');
  const followed = rating.authors[rating.authors.length - 1]!;
  const token = await signupByApi(request);
  const res = await request.put(apiPaths.follow(), {
    headers: { authorization: `Bearer ${token}` },
    data: { followed_id: followed.userId },
  });
  expect(res.status()).toBe(200);

  await useToken(page, token);
  await page.goto('/leaderboard/?by=rating&period=all');
  const rows = page.getByRole('list', { name: /authors/ }).getByRole('listitem');
  const mine = rows.filter({ hasText: followed.name });
  await expect(mine.getByText('You follow')).toBeVisible();
  await expect(rows.getByText('You follow')).toHaveCount(1);
  await expect(mine.getByRole('link', { name: followed.name })).toHaveAttribute(
    'href',
    apiPaths.authorPage(followed.authorId),
  );

  // The same page for a visitor marks nobody.
  await page.evaluate(() => localStorage.removeItem('accesstoken'));
  await page.reload();
  await expect(rows.first()).toBeVisible();
  await expect(page.getByText('You follow')).toHaveCount(0);
});
