import {
  expect,
  test,
  waitingForTheApp,
  type APIRequestContext,
  type Locator,
  type Page,
} from './support/hydrated.ts';
import { apiPaths, detailsPath, type AuthorStats } from '@kathamala/domain';
import { AppShell } from './pages/AppShell.ts';
import { AuthPage } from './pages/AuthPage.ts';
import { findStory, newReader, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

const bearer = (token: string): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/** Calls the API and returns its `object`, failing the test on anything but code 0. */
async function call<T>(
  request: APIRequestContext,
  method: 'get' | 'post',
  path: string,
  token: string,
  data?: unknown,
): Promise<T> {
  const res = await request[method](path, { headers: bearer(token), data });
  const body = (await res.json()) as { code: number; object: T; message?: string };
  expect(body.code, `${method.toUpperCase()} ${path}: ${body.message ?? ''}`).toBe(0);
  return body.object;
}

/** Content-Security-Policy violations and page errors (chart.js must draw within the policy). */
async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.exposeBinding('__reportCsp', (_source, text: string) => problems.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCsp: (s: string) => void }).__reportCsp;
      report(`CSP ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  });
  page.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** True once the canvas has some pixel that is not transparent: chart.js drew on it. */
const hasInk = (canvas: Locator) =>
  canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    if (c.width === 0 || c.height === 0) return false;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  });

test('an author publishes, another reader reads and rates, and the author sees the read and the rating in /statistics/ with charts drawn', async ({
  page,
  browser,
  request,
}) => {
  // Reads reach the statistics through the roll-up job, which starts about a minute after a view.
  test.setTimeout(240_000);
  const problems = await watchProblems(page);
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  const stamp = Date.now().toString(36);
  const title = `The Statistics Journey ${stamp}`;

  // An author (a new account, registered as an author) publishes a story of two episodes.
  const account = newReader();
  const signup = await call<{ accesstoken: string }>(
    request,
    'post',
    apiPaths.signup(),
    '',
    account,
  );
  const registered = await call<{ accesstoken: string }>(
    request,
    'post',
    apiPaths.registerAuthor(),
    signup.accesstoken,
    { name: `Author ${stamp}` },
  );
  const authorToken = registered.accesstoken;
  const { storyId } = await call<{ storyId: number }>(
    request,
    'post',
    apiPaths.publishStory(),
    authorToken,
    {
      story: {
        title,
        description: 'A story written to be counted.',
        language: 'english',
        kind: 0,
        category: 'mystery',
      },
    },
  );
  for (const [n, episodeTitle] of [
    [1, 'The First Count'],
    [2, 'The Second Count'],
  ] as const) {
    const episode = await call<{ partNumber: number | null }>(
      request,
      'post',
      apiPaths.publishEpisode(),
      authorToken,
      {
        episode: {
          storyId,
          title: episodeTitle,
          content: `<p>Episode ${n} of a story that is read once and rated once.</p>`,
          status: 'published',
        },
      },
    );
    expect(episode.partNumber).toBe(n);
  }

  // A new author with nothing read yet: the page says so and draws no empty charts.
  await page.goto('/login');
  await new AuthPage(page).login(account);
  await expect(page).toHaveURL('/');
  await (await new AppShell(page).menu()).getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/statistics\/$/);
  await expect(page.getByRole('heading', { name: 'Statistics', level: 1 })).toBeVisible();
  await expect(page.getByText('Nobody has read your stories yet.', { exact: false })).toBeVisible();
  await expect(page.locator('[data-chart="reads"]')).toHaveAttribute('data-state', 'empty');

  // Another reader, in a browser of their own, reads both parts and rates the story 4.5.
  const readerToken = await signupByApi(request);
  for (const partNumber of [1, 2])
    expect(
      await call<{ counted: boolean }>(request, 'post', apiPaths.view(storyId), readerToken, {
        medium: 'WEB',
        partNumber,
      }),
    ).toEqual({ counted: true });
  await call(request, 'post', apiPaths.rate(storyId), readerToken, { rating: '4.5' });

  // The reader is not an author: /statistics/ sends them home.
  const readerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const reader = waitingForTheApp(await readerContext.newPage());
  await useToken(reader, readerToken);
  await reader.goto('/statistics/');
  await expect(reader).toHaveURL(/\/$/);
  await expect(
    (await new AppShell(reader).menu()).getByRole('link', { name: 'Statistics' }),
  ).toHaveCount(0);
  await readerContext.close();

  // The views' roll-up runs on its own about a minute later; then the author's figures have them.
  await expect
    .poll(
      async () => {
        const { stats } = await call<{ stats: AuthorStats }>(
          request,
          'get',
          apiPaths.statsAuthor('30'),
          authorToken,
        );
        return stats.stories.find((s) => s.storyId === storyId)?.reads ?? 0;
      },
      { timeout: 150_000, intervals: [5_000] },
    )
    .toBe(2);

  // The author's page: figures first...
  await page.reload();
  const figure = (key: string) => page.locator(`[data-figure="${key}"]`);
  await expect(figure('reads').locator('dd').first()).toHaveText('2');
  await expect(figure('readers').locator('dd').first()).toHaveText('1');
  await expect(figure('ratings').locator('dd').first()).toHaveText('1');
  await expect(figure('ratings')).toContainText('Average 4.5 of 5');
  // ...then charts drawn on their canvases, each named for screen readers.
  for (const name of ['reads', 'dropoff', 'ratings']) {
    const chart = page.locator(`[data-chart="${name}"]`);
    await expect(chart).toHaveAttribute('data-state', 'drawn');
    const canvas = chart.getByRole('img');
    await expect(canvas).toHaveAttribute('aria-label', /.+/);
    await expect.poll(() => hasInk(canvas)).toBe(true);
  }
  await expect(page.locator('[data-chart="reads"]').getByRole('img')).toHaveAttribute(
    'aria-label',
    /2 in all/,
  );
  await expect(page.locator('[data-chart="ratings"]')).toContainText('Average 4.5 of 5');

  // The numbers behind a chart, as a table: both parts were reached by the one reader.
  const dropoff = page.locator('[data-chart="dropoff"]');
  await dropoff.getByText('Show as table').click();
  const rows = dropoff.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText('The First Count');
  await expect(rows.nth(1).getByRole('cell').first()).toHaveText('1');
  await expect(rows.nth(2)).toContainText('The Second Count');
  await expect(rows.nth(2).getByRole('cell').nth(1)).toHaveText('100%');

  // The stories table lists the story with its reads and rating.
  const row = page
    .getByRole('region', { name: 'Your stories' })
    .getByRole('row')
    .filter({ hasText: title });
  await expect(row).toContainText('4.5 (1)');
  await expect(row.getByRole('cell').first()).toHaveText('2');

  // The period is chosen with the keyboard and kept in the address.
  const week = page
    .getByRole('navigation', { name: 'Period' })
    .getByRole('link', { name: '7 days' });
  await week.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?period=7$/);
  await expect(week).toHaveAttribute('aria-current', 'page');
  await expect(figure('reads').locator('dd').first()).toHaveText('2');
  await expect(page.locator('[data-chart="reads"]')).toHaveAttribute('data-state', 'drawn');
  expect(problems).toEqual([]);
  // The chart code came as its own script (the next test makes sure other pages never ask for it).
  expect(scripts.some((url) => /chartjs/i.test(url))).toBe(true);
});

test('a visitor going to /statistics/ is sent home; home and reading pages never load chart.js', async ({
  page,
  request,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  const story = await findStory(request, (s) => s.kind === 0, 'text story');
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await page.goto(detailsPath(story.storyId));
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /chartjs|chart\.js/i.test(url))).toEqual([]);

  await page.goto('/statistics/');
  await expect(page).toHaveURL(/\/$/);
});
