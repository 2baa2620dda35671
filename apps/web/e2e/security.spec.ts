import { expect, test, type Page } from './support/hydrated.ts';
import { apiPaths, COMFORT_STORAGE_KEY, detailsPath } from '@kathamala/domain';
import { AppShell } from './pages/AppShell.ts';
import { AuthPage } from './pages/AuthPage.ts';
import { PublishPage } from './pages/PublishPage.ts';
import { findStory, partByApi } from './support/api.ts';

/**
 * Collects every Content-Security-Policy violation and page error the page reports, across
 * navigations: the `securitypolicyviolation` event (through a binding, which survives page
 * loads) and Chromium's console message for refused resources.
 */
async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.exposeBinding('__reportCsp', (_source, text: string) => problems.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCsp: (s: string) => void }).__reportCsp;
      report(`CSP ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} on ${location.href}`);
    });
  });
  page.on('console', (msg) => {
    if (msg.text().includes('Content Security Policy')) problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

test('a reader goes through the app without one CSP violation or page error', async ({
  page,
  request,
}) => {
  const problems = await watchProblems(page);
  const story = await findStory(
    request,
    (s) => s.kind === 0 && s.numberOfparts >= 2,
    'text story with two or more episodes',
  );

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.goto(detailsPath(story.storyId));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(story.title);

  await page.goto('/login');
  // An author: the workspace below loads the editor too.
  await new AuthPage(page).login({
    email: 'nilmini@demo.kathamala.lk',
    password: 'kathamala-demo',
  });
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.locator('html')).toHaveAttribute('data-auth', 'in');

  // Typed text that would run if it were ever treated as markup.
  const token = await page.evaluate(() => localStorage.getItem('accesstoken'));
  const part = await partByApi(request, token!, story.storyId, 1);
  const hostile = `<img src=x onerror="document.title='owned'"><script>document.title='owned'</script>`;
  const posted = await request.post(apiPaths.comment(), {
    headers: { authorization: `Bearer ${token}` },
    data: {
      storyId: story.storyId,
      episodeId: part.part.episodeId,
      feedback: hostile,
      platform: 'web',
    },
  });
  expect(posted.ok()).toBe(true);

  await page.goto(detailsPath(story.storyId, 1));
  await expect(page.locator('[data-episode-text]')).toBeVisible();
  // Wherever the comment shows, it is text: nothing it holds runs. (A fixed wait: a logged-in
  // reading page did not reach networkidle within the test's time.)
  await page.waitForTimeout(2_000);
  expect(await page.title()).not.toBe('owned');
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  // The reading settings panel and the notification drawer open without a violation.
  await page.getByRole('button', { name: 'Reading settings' }).click();
  await page.getByRole('radio', { name: /Dark/ }).first().check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');
  const menu = await new AppShell(page).menu();
  await menu.getByRole('button', { name: /^Notifications/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
  await page.keyboard.press('Escape');

  for (const path of [
    '/account',
    '/bookmarks',
    '/leaderboard',
    '/statistics',
    `/author/${story.author.authorId}/`,
    `/search?query=${encodeURIComponent(story.title.split(' ')[0]!)}`,
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }

  const publish = new PublishPage(page);
  await page.goto('/publish/story/');
  await page.getByRole('link', { name: 'New story' }).first().waitFor();
  await publish.createStory({
    title: 'CSP check',
    description: 'A story made by the security journey.',
    category: 'Romance',
  });
  await publish.newEpisode('One');
  await publish.type('Nothing here runs.');

  // Let late requests (images, lazy chunks) land before judging.
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});

test('the API docs work under the policy', async ({ page }) => {
  const problems = await watchProblems(page);
  await page.goto('/api/docs');
  // Swagger UI lays out the whole document in the page: seconds on a busy machine. This checks
  // the policy, not its speed.
  await expect(page.getByText('Kathamala API').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});

test('an injected inline script is refused and reported', async ({ page }) => {
  const problems = await watchProblems(page);
  await page.goto('/');
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.body.append(script);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.__injected = true');
    img.src = 'data:,broken';
    document.body.append(img);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (window as unknown as { __injected?: boolean }).__injected ?? false;
  });
  expect(ran).toBe(false);
  await expect.poll(() => problems.filter((p) => p.startsWith('CSP')).length).toBeGreaterThan(0);
});

test('reading comfort and the reader mark apply before any app script runs', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(
    ([key]) => {
      localStorage.setItem(key!, JSON.stringify({ theme: 'dark', size: 3, spacing: 2 }));
      localStorage.setItem('accesstoken', 'not-checked-before-paint');
    },
    [COMFORT_STORAGE_KEY],
  );
  // Without the app's bundles only the server's HTML and /prepaint.js act on the page.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(html).toHaveAttribute('data-text-size', '3');
  await expect(html).toHaveAttribute('data-line-spacing', '2');
  await expect(html).toHaveAttribute('data-auth', 'in');

  // 'system' leaves the theme to the device; a damaged value changes nothing.
  await page.evaluate(
    ([key]) => localStorage.setItem(key!, JSON.stringify({ theme: 'system', size: 9 })),
    [COMFORT_STORAGE_KEY],
  );
  await page.reload();
  await expect(html).not.toHaveAttribute('data-theme', /./);
  await expect(html).not.toHaveAttribute('data-text-size', /./);
});
