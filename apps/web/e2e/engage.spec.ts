import {
  expect,
  test,
  type APIRequestContext,
  type Page,
  type Request,
} from './support/hydrated.ts';
import { apiPaths, COMMENT_PLATFORM, detailsPath, type StoryListItem } from '@kathamala/domain';
import { findStory, newReader, partByApi } from './support/api.ts';
import { useToken } from './support/session.ts';
import { holdClock } from './support/clock.ts';

/*
 * Readers engage on the story page: stars and claps, the bookmark, responses with replies,
 * mentions, Read all responses, removal, text that stays text, and the dark theme on a phone.
 * Every test signs up a fresh reader, so ratings and bookmarks start empty.
 */

async function signup(request: APIRequestContext) {
  const reader = newReader();
  const res = await request.post(apiPaths.signup(), { data: reader });
  const body = (await res.json()) as { object: { accesstoken: string } };
  return { ...reader, token: body.object.accesstoken };
}

const freeTextStory = (request: APIRequestContext) =>
  findStory(request, (s) => s.kind === 0 && !s.membersOnly, 'free text story');
const freeClapStory = (request: APIRequestContext) =>
  findStory(request, (s) => (s.kind === 2 || s.kind === 3) && !s.membersOnly, 'free clap story');

/** Rating calls the page makes, for counting them. */
function watchRatings(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/v1/story/rate/')) seen.push(r);
  });
  return seen;
}

/** Opens a part and brings the responses (lazy, loaded near the screen) into view. */
async function openResponses(page: Page, story: StoryListItem, part = 1) {
  await page.goto(detailsPath(story.storyId, part));
  await page
    .getByRole('heading', { name: /^(Rate|Clap for) this story$/ })
    .scrollIntoViewIfNeeded();
  const box = page.getByRole('textbox', { name: 'Write a response' });
  await box.scrollIntoViewIfNeeded();
  return box;
}

async function commentByApi(
  request: APIRequestContext,
  token: string,
  storyId: number,
  episodeId: number,
  feedback: string,
) {
  const res = await request.post(apiPaths.comment(), {
    headers: { authorization: `Bearer ${token}` },
    data: { storyId, episodeId, feedback, platform: COMMENT_PLATFORM },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('stars: a half-step rating goes as one request and is there after a reload', async ({
  page,
  request,
}) => {
  const story = await freeTextStory(request);
  const reader = await signup(request);
  await useToken(page, reader.token);
  const ratings = watchRatings(page);
  await page.clock.install();
  await page.goto(detailsPath(story.storyId, 1));

  const stars = page.getByRole('slider', { name: 'Your rating' });
  await stars.scrollIntoViewIfNeeded();
  await stars.focus();
  const answered = page.waitForResponse((r) => r.url().includes('/api/v1/story/rate/'));
  // Seven half steps from nothing within the 500 ms wait (the page's clock held still, so a
  // slow machine's key presses cannot outlast it): one request for 3.5.
  await holdClock(page);
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
  await expect(stars).toHaveAttribute('aria-valuenow', '3.5');
  await page.clock.runFor(600);
  expect((await answered).status()).toBe(200);
  await page.clock.resume();
  await expect(page.getByText('Thank you! Your rating is saved.')).toBeVisible();
  expect(ratings).toHaveLength(1);
  expect(ratings[0]!.postDataJSON()).toEqual({ rating: '3.5' });
  // The answer's fresh token is kept, like a refreshed one.
  expect(await page.evaluate(() => localStorage.getItem('accesstoken'))).toBeTruthy();

  // A click on the left half of the fifth star gives 4.5.
  const fifth = page.getByTestId('star-5');
  const box = (await fifth.boundingBox())!;
  const again = page.waitForResponse((r) => r.url().includes('/api/v1/story/rate/'));
  await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
  await again;
  await expect(stars).toHaveAttribute('aria-valuenow', '4.5');

  await page.reload();
  await expect(page.getByRole('slider', { name: 'Your rating' })).toHaveAttribute(
    'aria-valuenow',
    '4.5',
  );
});

test('claps: a burst of three claps is one request with rating 3', async ({ page, request }) => {
  const story = await freeClapStory(request);
  const reader = await signup(request);
  await useToken(page, reader.token);
  const ratings = watchRatings(page);
  await page.clock.install();
  await page.goto(detailsPath(story.storyId, 1));

  const clap = page.getByRole('button', { name: 'Clap', exact: true });
  await clap.scrollIntoViewIfNeeded();
  const answered = page.waitForResponse((r) => r.url().includes('/api/v1/story/rate/'));
  // Three claps within the 500 ms wait, on a clock held still as for the stars above.
  await holdClock(page);
  await clap.click();
  await clap.click();
  await clap.click();
  await expect(page.getByTestId('clap-count')).toHaveText('3');
  await page.clock.runFor(600);
  expect((await answered).status()).toBe(200);
  await page.clock.resume();
  // Well past the 500 ms wait: still the one request.
  await page.waitForTimeout(1200);
  expect(ratings).toHaveLength(1);
  expect(ratings[0]!.postDataJSON()).toEqual({ rating: '3' });

  await page.reload();
  await page.getByRole('button', { name: 'Clap', exact: true }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('clap-count')).toHaveText('3');
});

test('the bookmark shows the server’s state, also after a reload', async ({ page, request }) => {
  const story = await freeTextStory(request);
  const reader = await signup(request);
  await useToken(page, reader.token);
  await page.goto(detailsPath(story.storyId, 1));

  const bookmark = page.getByRole('button', { name: 'Bookmark' });
  await expect(bookmark).toHaveAttribute('aria-pressed', 'false');
  await bookmark.click();
  const saved = page.getByRole('button', { name: 'Bookmarked' });
  await expect(saved).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Bookmarked' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByRole('button', { name: 'Bookmarked' }).click();
  await expect(page.getByRole('button', { name: 'Bookmark' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
});

test('a reader comments, replies, mentions someone in the thread and removes a comment', async ({
  page,
  request,
}) => {
  const story = await freeTextStory(request);
  const other = await signup(request);
  const part = await partByApi(request, other.token, story.storyId, 1);
  await commentByApi(request, other.token, story.storyId, part.part.episodeId, 'Lovely start.');

  const reader = await signup(request);
  await useToken(page, reader.token);
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const box = await openResponses(page, story);
  const post = page.getByRole('button', { name: 'Post', exact: true });
  await expect(post).toBeDisabled();
  await box.fill('   ');
  await expect(post).toBeDisabled();

  // Markup is text: shown as typed, nothing runs.
  const markup = '<img src=x onerror=alert(1)>';
  await box.fill(markup);
  await post.click();
  const section = page.getByRole('region', { name: /^Responses/ });
  const mine = section.getByRole('listitem').filter({ hasText: markup });
  await expect(mine).toBeVisible();
  await expect(box).toHaveValue('');
  expect(await section.locator('img').count()).toBe(0);

  // Line breaks are kept.
  await box.fill('First line\nSecond line');
  await post.click();
  const twoLines = section.getByRole('listitem').filter({ hasText: 'Second line' });
  await expect(twoLines).toBeVisible();
  const height = await twoLines.locator('p').evaluate((p) => p.getBoundingClientRect().height);
  const lineHeight = await twoLines
    .locator('p')
    .evaluate((p) => parseFloat(getComputedStyle(p).lineHeight));
  expect(height).toBeGreaterThan(lineHeight * 1.5);

  // Reply to the other reader, mentioning them from the thread.
  const theirs = section.getByRole('listitem').filter({ hasText: 'Lovely start.' });
  await theirs.getByRole('button', { name: 'Reply', exact: true }).click();
  const reply = theirs.getByRole('textbox', { name: 'Write a reply' });
  await expect(reply).toBeFocused();
  await reply.press('Enter');
  await expect(theirs.getByRole('listitem')).toHaveCount(0);
  await reply.pressSequentially(`Thanks @${other.username.slice(0, 10)}`);
  const option = page.getByRole('option', { name: `@${other.username}` });
  await expect(option).toBeVisible();
  await reply.press('Enter');
  await expect(reply).toHaveValue(`Thanks @${other.username} `);
  await reply.pressSequentially('@zzqx');
  await expect(page.getByText('No Suggestions', { exact: true })).toBeVisible();
  await reply.press('Escape');
  await reply.press('Shift+Enter');
  await reply.pressSequentially('see you');
  await reply.press('Enter');
  const sent = theirs.getByRole('listitem').filter({ hasText: 'see you' });
  await expect(sent).toBeVisible();
  await expect(sent).toContainText(`@${other.username} @zzqx`);
  await expect(theirs.getByRole('button', { name: 'Hide replies' })).toBeVisible();

  // Report the other reader's comment with a reason.
  await theirs.getByRole('button', { name: 'Report' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Report this response' });
  await dialog.getByRole('radio', { name: 'Spoiler' }).check();
  const reported = page.waitForResponse((r) => r.url().includes('/comment/report/'));
  await dialog.getByRole('button', { name: 'Send report' }).click();
  expect((await reported).request().postDataJSON()).toMatchObject({ reason: 'Spoiler' });
  await expect(dialog.getByText('Thank you. Our editors will review it.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // Remove the reader's own comment (it asks first): gone from the list and after a reload.
  await mine.getByRole('button', { name: 'Remove' }).click();
  await mine.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(section.getByRole('listitem').filter({ hasText: markup })).toHaveCount(0);
  await page.reload();
  await openResponses(page, story);
  await expect(section.getByRole('listitem').filter({ hasText: 'Lovely start.' })).toBeVisible();
  await expect(section.getByText(markup)).toHaveCount(0);
  expect(dialogs).toBe(0);
});

test('only five responses show until Read all responses', async ({ page, request }) => {
  const story = await findStory(
    request,
    (s) => s.kind === 0 && !s.membersOnly && s.numberOfparts >= 2,
    'free text story with two parts',
  );
  // Two writers, three each: the per-account limit is never in the way.
  const a = await signup(request);
  const b = await signup(request);
  const part = await partByApi(request, a.token, story.storyId, 2);
  for (let i = 1; i <= 6; i++)
    await commentByApi(
      request,
      i % 2 ? a.token : b.token,
      story.storyId,
      part.part.episodeId,
      `Numbered response ${i}`,
    );

  const reader = await signup(request);
  await useToken(page, reader.token);
  await openResponses(page, story, 2);
  const section = page.getByRole('region', { name: /^Responses/ });
  const items = section.getByRole('listitem').filter({ hasText: 'Numbered response' });
  await expect(items).toHaveCount(5);
  // Newest first: the first one posted is the one left out.
  await expect(section.getByText('Numbered response 1', { exact: true })).toHaveCount(0);
  await section.getByRole('button', { name: 'Read all responses' }).click();
  await expect(items).toHaveCount(6);
  await expect(section.getByRole('button', { name: 'Read all responses' })).toHaveCount(0);
});

test('a view counts 60 s after a part loads, and progress is saved as the reader moves', async ({
  page,
  request,
}) => {
  const story = await freeTextStory(request);
  const reader = await signup(request);
  await useToken(page, reader.token);
  const views: Request[] = [];
  const saves: Request[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'POST') return;
    if (r.url().includes(`/api/v1/stats/story/${story.storyId}/view/`)) views.push(r);
    if (r.url().endsWith(apiPaths.progress())) saves.push(r);
  });
  await page.clock.install();
  await page.goto(detailsPath(story.storyId, 1));
  await expect(page.locator('[data-episode-text]')).toBeVisible();
  // Where the reader is goes at once: Continue reading knows the part.
  await expect.poll(() => saves.length).toBe(1);
  expect(saves[0]!.postDataJSON()).toMatchObject({ storyId: story.storyId, partNumber: 1 });

  // The page's clock also flows on its own while the test runs: leave a slow machine 5 s.
  await page.clock.runFor(55_000);
  expect(views).toHaveLength(0);
  await page.clock.runFor(6_000);
  await expect.poll(() => views.length).toBe(1);
  expect(views[0]!.postDataJSON()).toEqual({ medium: 'WEB', partNumber: 1 });

  // Scrolling to the end saves again (at most every 5 s), further down.
  await page.locator('[data-rating-style]').scrollIntoViewIfNeeded();
  await page.clock.runFor(6_000);
  await expect.poll(() => saves.length).toBeGreaterThan(1);
  const last = saves[saves.length - 1]!.postDataJSON() as { position: number };
  expect(last.position).toBe(1);
  await page.clock.runFor(120_000);
  expect(views).toHaveLength(1);
});

test('visitors and non-members get no rating or responses UI, and visitors ask for nothing more', async ({
  page,
  request,
}) => {
  const free = await freeTextStory(request);
  const engagement: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/v1\/(story\/(rate|bookmark|comments|comment|progress)|stats\/story)/.test(r.url()))
      engagement.push(r.url());
  });
  await page.goto(detailsPath(free.storyId, 1));
  await expect(page.getByRole('region', { name: 'Log in to keep reading' })).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Your rating' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Bookmark' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Write a response' })).toHaveCount(0);
  expect(engagement).toEqual([]);

  const members = await findStory(request, (s) => s.membersOnly, 'members-only story');
  const reader = await signup(request);
  await useToken(page, reader.token);
  await page.goto(detailsPath(members.storyId, 1));
  await expect(page.getByRole('region', { name: /This story is for members/ })).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Your rating' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Clap', exact: true })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Write a response' })).toHaveCount(0);
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the dark theme from the Aa panel colours the whole page and is remembered', async ({
    page,
    request,
  }, testInfo) => {
    const story = await freeTextStory(request);
    const reader = await signup(request);
    await useToken(page, reader.token);
    await page.goto(detailsPath(story.storyId, 1));

    await page.getByRole('button', { name: 'Reading settings' }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.getByRole('radio', { name: 'Largest' }).check();
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(html).toHaveAttribute('data-text-size', '4');
    const luminance = () =>
      page.evaluate(() => {
        const [r, g, b] = getComputedStyle(document.documentElement)
          .backgroundColor.match(/\d+/g)!
          .map(Number);
        return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
      });
    expect(await luminance()).toBeLessThan(0.15);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: testInfo.outputPath('dark-375.png') });

    const text = page.locator('[data-episode-text]');
    const larger = await text.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(larger).toBeGreaterThan(21);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(
      375,
    );

    // Remembered on this device: the next page is dark before any click.
    await page.goto('/');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await luminance()).toBeLessThan(0.15);
    await page.screenshot({ path: testInfo.outputPath('dark-home-375.png') });
  });
});
