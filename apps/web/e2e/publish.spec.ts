import { expect, test, waitingForTheApp } from './support/hydrated.ts';
import sharp from 'sharp';
import { apiPaths, countWords, detailsPath } from '@kathamala/domain';
import { AppShell } from './pages/AppShell.ts';
import { AuthPage } from './pages/AuthPage.ts';
import { PublishPage } from './pages/PublishPage.ts';
import { StoryPage } from './pages/StoryPage.ts';
import { newReader, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

// A word no demo story has, in Sinhala letters, so search and the lists find this story only.
const uniqueSinhalaWord = (): string =>
  [...Date.now().toString().slice(-7)].map((d) => 'කගචජටඩතදපබ'[Number(d)]).join('');

/** A local date-time input value between 30 and 90 seconds from now, in the page's time zone. */
const aboutAMinuteAhead = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const d = new Date(Date.now() + 90_000);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
  });

test('a new author publishes a Sinhala story with a cover and a scheduled episode; a reader finds and reads it', async ({
  page,
  browser,
  request,
}) => {
  // The second episode goes out a minute after it is scheduled, with no one asking.
  test.setTimeout(240_000);
  const word = uniqueSinhalaWord();
  const title = `සඳ එළිය ${word}`;
  const penName = `ලේඛිකා ${word}`;
  const firstLine = 'ඈත කඳුකරයේ පුංචි ගමක ';
  const secondLine = 'මේ වචන නැවත පූරණය කළත් නැති නොවිය යුතුයි.';
  const thirdLine = 'හෙට උදේ ඇය ගමට ආවා.';

  // A new reader joins and opens Write a story from the menu.
  await page.goto('/signup');
  await new AuthPage(page).signup(newReader());
  await expect(page).toHaveURL('/');
  const shell = new AppShell(page);
  await (await shell.menu()).getByRole('link', { name: 'Write a story' }).click();
  await expect(page).toHaveURL(/\/publish\/story\/?$/);

  // Not an author yet: the page offers registration, and the menu turns author at once.
  const publish = new PublishPage(page);
  await publish.registerAsAuthor(penName, 'ගම්බද ජීවිතය ගැන ලියන්නියක්.');
  await expect(page.getByRole('heading', { name: 'Write a story', level: 1 })).toBeVisible();
  await expect((await shell.menu()).getByRole('link', { name: 'Statistics' })).toBeVisible();
  if (await page.locator('summary', { hasText: 'Menu' }).isVisible())
    await page.locator('summary', { hasText: 'Menu' }).click();

  // A Sinhala story, then its cover.
  await publish.createStory({
    title,
    description: 'කඳුකර ගමක සඳ එළියේ හමු වූ දෙදෙනෙකුගේ කතාව.',
    category: 'Romance',
  });
  await expect(
    page.getByText('Story created. Add a cover, then write the first episode.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true }).first()).toBeVisible();
  const png = await sharp({
    create: { width: 400, height: 600, channels: 3, background: '#336699' },
  })
    .png()
    .toBuffer();
  await publish.uploadCover(png);
  await expect(page.getByText('Cover uploaded.')).toBeVisible();

  // Episode 1, with a bold word, published now.
  await publish.newEpisode('පළමු කොටස');
  await publish.type(firstLine);
  await publish.tool('Bold').click();
  await expect(publish.tool('Bold')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('සඳ');
  await publish.tool('Bold').click();
  await expect(publish.tool('Bold')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.type(' එළියේ ඔවුන් මුණගැසුණා.');
  await expect(publish.editor.locator('strong')).toHaveText('සඳ');
  await expect(page.getByText(/^\d+ words$/)).toHaveText(
    `${countWords(`${firstLine}සඳ එළියේ ඔවුන් මුණගැසුණා.`)} words`,
  );
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByText('Published as episode 1.')).toBeVisible();
  await expect(page.getByText('Published', { exact: true }).first()).toBeVisible();

  // Episode 2: a reload in the middle of typing loses nothing.
  await publish.backToStory(title);
  await publish.newEpisode('දෙවන කොටස');
  await publish.type(secondLine);
  await page.reload();
  await expect(publish.editor).toContainText(secondLine);
  await expect(publish.episodeTitle).toHaveValue('දෙවන කොටස');
  await publish.type(' ' + thirdLine);
  await expect(publish.editor).toContainText(thirdLine);

  // ...then it is scheduled about a minute ahead.
  await publish.schedule(await aboutAMinuteAhead(page));
  await expect(
    page.getByText(/^Scheduled: it goes out \d{4}-\d\d-\d\d \d\d:\d\d\.$/),
  ).toBeVisible();
  await publish.backToStory(title);
  await expect(page.getByText('1 published · 1 scheduled').first()).toBeVisible();

  // Another reader, in a browser of their own.
  const readerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const reader = waitingForTheApp(await readerContext.newPage());
  await useToken(reader, await signupByApi(request));

  // Home, sorted Newest: the story is there (the public lists may be a few seconds old).
  await reader.goto('/');
  await reader
    .getByRole('navigation', { name: 'Sort stories' })
    .getByRole('link', { name: 'Newest' })
    .click();
  const card = reader.getByRole('article').getByRole('link', { name: title, exact: true });
  await expect(async () => {
    await reader.reload();
    await expect(card).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // Search finds it by its Sinhala title.
  const readerShell = new AppShell(reader);
  await readerShell.search(title);
  await expect(reader).toHaveURL(/\/search\?q=/);
  const result = reader.getByRole('article').getByRole('link', { name: title, exact: true });
  await expect(result).toBeVisible();
  await result.click();

  // Episode 1 reads as written: the bold word is bold, the cover is the one uploaded.
  const storyPage = new StoryPage(reader);
  await expect(storyPage.title()).toHaveText(title);
  await expect(reader.getByText(penName)).toBeVisible();
  await expect(storyPage.episodeLabel).toHaveText('Episode 1 of 1');
  const text = reader.locator('[data-episode-text]');
  await expect(text).toContainText(firstLine.trim());
  await expect(text.locator('strong')).toHaveText('සඳ');
  const coverSrc = await reader.getByRole('img', { name: `Cover of ${title}` }).getAttribute('src');
  const cover = await reader.request.get(coverSrc!);
  expect(cover.status()).toBe(200);
  const { dominant } = await sharp(await cover.body()).stats();
  expect(Math.abs(dominant.r - 0x33)).toBeLessThan(24);
  expect(Math.abs(dominant.g - 0x66)).toBeLessThan(24);
  expect(Math.abs(dominant.b - 0x99)).toBeLessThan(24);

  // Episode 2 is not out yet: no second part, and its text is nowhere.
  const storyId = Number(new URL(reader.url()).pathname.split('/')[2]);
  await expect(storyPage.pager.getByRole('link', { name: 'Episode 2' })).toHaveCount(0);
  await reader.goto(detailsPath(storyId, 2));
  await expect(reader.getByText(secondLine)).toHaveCount(0);
  const early = await reader.request.get(apiPaths.part(storyId, 2), {
    headers: {
      authorization: `Bearer ${await reader.evaluate(() => localStorage.getItem('accesstoken'))}`,
    },
  });
  expect(early.status()).toBeGreaterThanOrEqual(400);

  // Once its time has come it goes out by itself, and the reader can read it.
  await expect(async () => {
    await reader.goto(detailsPath(storyId, 2));
    await expect(storyPage.episodeLabel).toHaveText('Episode 2 of 2', { timeout: 3_000 });
  }).toPass({ timeout: 150_000, intervals: [5_000] });
  await expect(reader.locator('[data-episode-text]')).toContainText(secondLine);
  await expect(reader.locator('[data-episode-text]')).toContainText(thirdLine);
  await readerContext.close();
});

test('a visitor who opens Write a story is sent to log in and comes back to it', async ({
  page,
}) => {
  await page.goto('/publish/story/');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/publish/story/');
  await new AuthPage(page).login({ email: 'ashan@demo.kathamala.lk', password: 'kathamala-demo' });
  await expect(page).toHaveURL(/\/publish\/story\/$/);
  await expect(page.getByRole('heading', { name: 'Your stories' })).toBeVisible();
});
