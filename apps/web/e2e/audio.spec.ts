import AxeBuilder from '@axe-core/playwright';
import { expect, test, waitingForTheApp } from './support/hydrated.ts';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiPaths, UI_LANG_COOKIE, type StoryDetails } from '@kathamala/domain';
import { BASE_URL } from './playwright.config.ts';
import { call, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

/**
 * A WAV file the test makes itself (so the test side needs no ffmpeg): `seconds` of a 440 Hz
 * sine, 16-bit PCM mono at 22,050 Hz, loud enough to be speech-like after normalisation.
 */
function sineWav(seconds: number, hz = 440): Buffer {
  const rate = 22_050;
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // bytes a second
  wav.writeUInt16LE(2, 32); // bytes a frame
  wav.writeUInt16LE(16, 34); // bits a sample
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 0.3 * 32767), 44 + i * 2);
  return wav;
}

const DEMO_AUTHORS = ['dilini@demo.kathamala.lk', 'ashan@demo.kathamala.lk'];

/** A demo author's token and a public story of theirs without tracks, members-only or free. */
async function storyWithoutAudio(request: APIRequestContext, membersOnly = false) {
  for (const email of DEMO_AUTHORS) {
    const login = await request.post(apiPaths.login(), {
      data: { email, password: 'kathamala-demo' },
    });
    const token = ((await login.json()) as { object: { accesstoken: string } }).object.accesstoken;
    const own = await call<{
      stories: { storyId: number; membersOnly: boolean; numberOfparts: number; status: string }[];
    }>(request, token, 'GET', apiPaths.ownStories());
    for (const s of own.stories) {
      if (s.membersOnly !== membersOnly || s.status !== 'public' || s.numberOfparts < 1) continue;
      const preview = await call<StoryDetails>(request, '', 'GET', apiPaths.preview(s.storyId));
      if (preview.audioBooks.length === 0) return { token, storyId: s.storyId };
    }
  }
  throw new Error(`no demo author has a public story (members-only: ${membersOnly}) without audio`);
}

/** Uploads a track through the API (the journey above uploads through the page). */
async function uploadByApi(
  request: APIRequestContext,
  token: string,
  storyId: number,
  title: string,
) {
  const res = await request.post(`/api/v1/author/audio/upload/${storyId}`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      title,
      audio: { name: `${title}.wav`, mimeType: 'audio/wav', buffer: sineWav(2) },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The current time of the player's <audio> element, in seconds. */
const audioTime = (page: Page) =>
  page.locator('dialog audio').evaluate((a: HTMLAudioElement) => a.currentTime);

async function uploadTrack(page: Page, title: string, wav: Buffer) {
  const form = page.locator('form', { has: page.getByLabel('Audio file') });
  await form.getByLabel('Audio file').setInputFiles({
    name: `${title}.wav`,
    mimeType: 'audio/wav',
    buffer: wav,
  });
  await form.getByLabel('Track title').fill(title);
  await form.getByRole('button', { name: 'Upload track' }).click();
  await expect(
    page.getByText('Uploaded. The track is being prepared; this takes a minute or two.'),
  ).toBeVisible();
}

const trackRow = (page: Page, title: string): Locator =>
  page.getByRole('listitem').filter({ hasText: title });

test('an author uploads narration; a reader plays it, seeks 5 s, moves on to the next track and resumes after a reload', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { token, storyId } = await storyWithoutAudio(request);
  const id = Date.now().toString(36);
  const first = `Opening ${id}`;
  const second = `Second ${id}`;

  // The author uploads two short tracks made here; each turns ready after processing.
  await useToken(page, token);
  await page.goto(`/publish/story/?story=${storyId}`);
  await expect(page.getByRole('heading', { name: 'Audio', level: 2 })).toBeVisible();
  await uploadTrack(page, first, sineWav(8));
  await expect(trackRow(page, first)).toBeVisible();
  await uploadTrack(page, second, sineWav(12, 330));
  // The list asks again by itself while a track is processing.
  for (const title of [first, second]) {
    await expect(trackRow(page, title)).toHaveAttribute('data-track-status', 'ready', {
      timeout: 90_000,
    });
    await expect(trackRow(page, title).getByText('Ready', { exact: true })).toBeVisible();
  }

  // A reader opens the story: the Audio book button is there, and the player loads on demand.
  const reader = waitingForTheApp(await (await browser.newContext()).newPage());
  await useToken(reader, await signupByApi(request));
  await reader.goto(`/details/${storyId}/`);
  await reader.getByRole('button', { name: 'Audio book' }).click();
  const player = reader.getByRole('dialog', { name: 'Audio book' });
  await expect(player).toBeVisible();
  await expect(player.getByRole('button', { name: first })).toHaveAttribute('aria-current', 'true');
  expect(await player.locator('audio').evaluate((a: HTMLAudioElement) => a.volume)).toBe(0.5);
  // The lock screen's title and author (Media Session).
  const lockScreen = () =>
    reader.evaluate(() => ({
      title: navigator.mediaSession.metadata?.title,
      artist: navigator.mediaSession.metadata?.artist,
    }));
  await expect.poll(async () => (await lockScreen()).title).toBe(first);
  expect((await lockScreen()).artist).not.toBe('');

  // It plays (the button turns Pause), then 5 s forward moves the place by 5 s.
  await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await expect.poll(() => audioTime(reader)).toBeGreaterThan(0.5);
  await player.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const before = await audioTime(reader);
  await player.getByRole('button', { name: 'Forward 5 seconds' }).click();
  expect(await audioTime(reader)).toBeCloseTo(before + 5, 0);
  await player.getByRole('button', { name: 'Back 5 seconds' }).click();
  expect(await audioTime(reader)).toBeCloseTo(before, 0);
  await player.getByRole('button', { name: 'Forward 5 seconds' }).click();

  // Played to its end, the first track hands over to the second.
  await player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(player.getByRole('button', { name: second })).toHaveAttribute(
    'aria-current',
    'true',
    { timeout: 15_000 },
  );
  await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await expect.poll(() => audioTime(reader), { timeout: 15_000 }).toBeGreaterThan(2);

  // Paused, the place goes to the server; after a reload the player starts there.
  const saved = reader.waitForRequest(
    (r) => r.url().endsWith('/api/v1/audio/progress/') && r.method() === 'POST',
  );
  await player.getByRole('button', { name: 'Pause', exact: true }).click();
  const sent = JSON.parse((await saved).postData() ?? '{}') as { positionSeconds: number };
  expect(sent.positionSeconds).toBeGreaterThanOrEqual(2);
  await (await saved).response();

  // The speed chosen is remembered on this device.
  await player.getByLabel('Speed').selectOption('1.5');

  await reader.reload();
  await reader.getByRole('button', { name: 'Audio book' }).click();
  await expect(player.getByRole('button', { name: second })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect.poll(() => audioTime(reader)).toBeGreaterThanOrEqual(sent.positionSeconds);
  await expect(player.getByLabel('Speed')).toHaveValue('1.5');
  expect(await player.locator('audio').evaluate((a: HTMLAudioElement) => a.playbackRate)).toBe(1.5);

  // Data saver: each quality says its MB; the saver stream takes over at the same place.
  const saver = player.getByRole('radio', { name: /^Data saver: \d+\.\d MB$/ });
  await expect(player.getByRole('radio', { name: /^Standard: \d+\.\d MB$/ })).toBeChecked();
  const at = await audioTime(reader);
  await saver.check();
  await expect
    .poll(() => player.locator('audio').evaluate((a: HTMLAudioElement) => a.currentSrc))
    .toContain('quality=saver');
  await expect.poll(() => audioTime(reader)).toBeGreaterThanOrEqual(Math.floor(at));

  // Hidden, it keeps playing; leaving the story stops it (the stop-audio event).
  // Escape hides it, as the Hide button does.
  await reader.keyboard.press('Escape');
  await expect(player).toBeHidden();
  await expect(reader.getByRole('button', { name: 'Now playing' })).toBeVisible();
  // The element itself, kept: gone from the page, it must not play on where no one can stop it.
  const element = await reader.locator('audio').elementHandle();
  expect(await element!.evaluate((a: HTMLAudioElement) => a.paused)).toBe(false);
  await reader.getByRole('link', { name: 'Home' }).first().click();
  await expect(reader).toHaveURL('/');
  expect(await element!.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
});

test('an author orders, renames, deletes and replaces tracks; a members-only story’s tracks are members-only', async ({
  page,
  request,
}) => {
  const { token, storyId } = await storyWithoutAudio(request, true);
  const id = Date.now().toString(36);
  const [a, b] = [`Alpha ${id}`, `Beta ${id}`];
  await uploadByApi(request, token, storyId, a);
  await uploadByApi(request, token, storyId, b);

  await useToken(page, token);
  await page.goto(`/publish/story/?story=${storyId}`);
  // The story is for members: so is every track, and the box says why it cannot be unticked.
  const box = page.getByRole('checkbox', { name: 'Members only' }).first();
  await expect(box).toBeChecked();
  await expect(box).toBeDisabled();
  await expect(page.getByText('This story is for members, so its tracks are too.')).toBeVisible();
  const titles = page.locator('[data-track-status] > div:first-child > span:first-child');
  await expect(titles).toHaveText([a, b]);

  // Down moves Alpha after Beta, and the order holds after a reload.
  await page.getByRole('button', { name: `Move “${a}” down` }).click();
  await expect(titles).toHaveText([b, a]);
  await page.reload();
  await expect(titles).toHaveText([b, a]);

  // Renamed in place.
  await page.getByRole('button', { name: `Edit “${a}”` }).click();
  const row = trackRow(page, a);
  await row.getByLabel('Track title').fill(`Gamma ${id}`);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Track saved.')).toBeVisible();
  await expect(titles).toHaveText([b, `Gamma ${id}`]);

  // Delete asks first; Keep it keeps it, Yes deletes it.
  await page.getByRole('button', { name: `Delete “${b}”` }).click();
  await expect(page.getByText(`Delete “${b}” for good?`)).toBeVisible();
  await page.getByRole('button', { name: 'Keep it' }).click();
  await expect(titles).toHaveText([b, `Gamma ${id}`]);
  await page.getByRole('button', { name: `Delete “${b}”` }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByText('Track deleted.')).toBeVisible();
  await expect(titles).toHaveText([`Gamma ${id}`]);
  await page.reload();
  await expect(titles).toHaveText([`Gamma ${id}`]);

  // Replace: a new file under the same title and place, processing again.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Replace the file of “Gamma ${id}”` }).click();
  await (
    await chooser
  ).setFiles({ name: 'new.wav', mimeType: 'audio/wav', buffer: sineWav(3, 550) });
  await expect(
    page.getByText('New file uploaded. It is being prepared; the old one is gone.'),
  ).toBeVisible();
  await expect(titles).toHaveText([`Gamma ${id}`]);
});

/** Axe's WCAG 2.1 A and AA findings inside `selector`, one readable line each. */
async function axe(page: Page, selector: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

test('the player and the tracks pass axe (WCAG 2.1 AA) at 375 and 1280 px, in English and Sinhala', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  // A demo story the seed narrates (The Monsoon House), and its author.
  const login = await request.post(apiPaths.login(), {
    data: { email: 'ashan@demo.kathamala.lk', password: 'kathamala-demo' },
  });
  const authorToken = ((await login.json()) as { object: { accesstoken: string } }).object
    .accesstoken;
  const own = await call<{ stories: { storyId: number; membersOnly: boolean }[] }>(
    request,
    authorToken,
    'GET',
    apiPaths.ownStories(),
  );
  let storyId = 0;
  for (const s of own.stories.filter((s) => !s.membersOnly)) {
    const preview = await call<StoryDetails>(request, '', 'GET', apiPaths.preview(s.storyId));
    if (preview.audioBooks.length > 1) storyId = s.storyId;
    if (storyId) break;
  }
  expect(storyId, 'a narrated demo story').toBeGreaterThan(0);

  for (const lang of ['en', 'si']) {
    for (const width of [375, 1280]) {
      const context = await browser.newContext({
        viewport: { width, height: 800 },
        ...(width === 375 ? { isMobile: true, hasTouch: true } : {}),
      });
      await context.addCookies([{ name: UI_LANG_COOKIE, value: lang, url: BASE_URL }]);
      const page = waitingForTheApp(await context.newPage());
      await page.goto(`/details/${storyId}/`);
      await page
        .locator('button[aria-haspopup="dialog"]', { hasText: /Audio book|ශ්‍රව්‍ය පොත/ })
        .click();
      await expect(page.locator('dialog[open]')).toBeVisible();
      expect(await axe(page, 'dialog[open]'), `player, ${lang} ${width}`).toEqual([]);

      // The author, in the same tab (as useToken does, which lint takes for a hook in a loop).
      await page.evaluate((t) => localStorage.setItem('accesstoken', t), authorToken);
      await page.goto(`/publish/story/?story=${storyId}`);
      const tracks = page.locator('section[aria-labelledby="audio-heading"]');
      await expect(tracks.locator('[data-track-status]').first()).toBeVisible();
      expect(
        await axe(page, 'section[aria-labelledby="audio-heading"]'),
        `tracks, ${lang} ${width}`,
      ).toEqual([]);
      await context.close();
    }
  }
});
