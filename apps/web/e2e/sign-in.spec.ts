import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { UI_LANG_COOKIE, type StoryListItem } from '@kathamala/domain';
import { BASE_URL } from './playwright.config.ts';
import { findStory, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';
import { StoryPage } from './pages/StoryPage.ts';

/**
 * Sign-in with Google and Facebook (issue 31) through the server's provider simulator: the
 * buttons on the wall and the auth pages, the provider's form, the way back logged in, and
 * linking from /account/.
 */

const SHOTS = process.env.SIGNIN_SHOTS;
/** Screenshots to look at (SIGNIN_SHOTS=dir): at 375 and 1280 px, or as the page is now. */
const shot = async (page: Page, name: string, widths: number[] = [375, 1280]) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  if (widths.length === 0) await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

/** A phone: the story page's screen guard leaves a window narrower than its frame. */
const phone = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

let n = 0;
const identity = (name: string) => ({
  email: `google-${Date.now().toString(36)}${++n}@example.com`,
  name,
});

/** Picks who one is on the simulator's page and continues (or cancels). */
async function onProvider(page: Page, who: { email: string; name: string }, cancel = false) {
  await expect(page).toHaveURL(/\/dev\/oauth\/(google|facebook)\/authorize/);
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Name').fill(who.name);
  await expect(page.getByLabel('Email verified')).toBeChecked();
  await page.getByRole('button', { name: cancel ? 'Cancel' : 'Continue' }).click();
}

const membersStory = (request: Parameters<typeof findStory>[0]): Promise<StoryListItem> =>
  findStory(request, (s) => s.membersOnly && s.kind === 0, 'members-only text story');

test.describe('on a 375 px phone', () => {
  test.use(phone);

  test('a visitor on a members-only story’s wall continues with Google and comes back to the same story logged in', async ({
    page,
    request,
  }) => {
    const story = await membersStory(request);
    const storyPage = new StoryPage(page);
    await storyPage.open(story.storyId);
    const google = storyPage.visitorWall.getByRole('link', { name: 'Continue with Google' });
    await expect(google).toBeVisible();
    await expect(
      storyPage.visitorWall.getByRole('link', { name: 'Continue with Facebook' }),
    ).toBeVisible();
    await storyPage.visitorWall.scrollIntoViewIfNeeded();
    await shot(page, 'wall-en-375', []);

    await google.click();
    await shot(page, 'simulator-375', []);
    await onProvider(page, identity('Sanduni Jayasekara'));

    // Back on the same story, logged in: a reader without a membership meets the membership wall.
    await expect(page).toHaveURL(new RegExp(`/details/${story.storyId}/?$`));
    await expect(storyPage.subscriptionWall).toBeVisible();
    await expect(storyPage.visitorWall).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('accesstoken'))).toBeTruthy();
    // The one-time code left the address bar and no token is in it.
    expect(page.url()).not.toContain('signin=');
  });
});

test('the wall offers both providers at 1280 px, in Sinhala too', async ({
  page,
  request,
  context,
}) => {
  const story = await membersStory(request);
  const storyPage = new StoryPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await storyPage.open(story.storyId);
  await expect(
    storyPage.visitorWall.getByRole('link', { name: 'Continue with Google' }),
  ).toBeVisible();
  await storyPage.visitorWall.scrollIntoViewIfNeeded();
  await shot(page, 'wall-en-1280', []);
  await context.addCookies([{ name: UI_LANG_COOKIE, value: 'si', url: BASE_URL }]);
  await page.reload();
  const wall = page.locator('section[aria-labelledby="wall-title"]');
  await expect(wall.getByRole('link', { name: 'Facebook සමඟ ඉදිරියට' })).toBeVisible();
  await wall.scrollIntoViewIfNeeded();
  await shot(page, 'wall-si-1280', []);
});

test('a cancel on the provider’s page comes back to /login with a sentence in the reader’s language, logged out', async ({
  page,
  context,
}) => {
  await page.goto('/login?redirect=%2Fbookmarks');
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toBeVisible();
  await shot(page, 'login-en');
  await page.getByRole('link', { name: 'Continue with Facebook' }).click();
  await onProvider(page, identity('Cancel'), true);
  await expect(page).toHaveURL(/\/login\?signin=cancelled/);
  await expect(page.getByRole('alert')).toHaveText(
    'You cancelled signing in. Nothing was changed.',
  );
  expect(await page.evaluate(() => localStorage.getItem('accesstoken'))).toBeNull();

  // The same in Sinhala.
  await context.addCookies([{ name: UI_LANG_COOKIE, value: 'si', url: BASE_URL }]);
  await page.goto('/login?signin=link_required');
  await expect(page.getByRole('alert')).toContainText('මෙම ඊමේල් ලිපිනය සහිත ගිණුමක් දැනටමත් ඇත');
  await expect(page.getByRole('link', { name: 'Google සමඟ ඉදිරියට' })).toBeVisible();
  await shot(page, 'login-si-error');
  await page.goto('/signup');
  await shot(page, 'signup-si');
});

test('a reader links Google from the account page, signs in with it, and unlinks it', async ({
  page,
  request,
  context,
}) => {
  await useToken(page, await signupByApi(request));
  await page.goto('/account/');
  const section = page.getByRole('region', { name: 'Ways to sign in' });
  await expect(section.getByText('E-mail address and password')).toBeVisible();
  await section.getByRole('button', { name: 'Link Google' }).click();
  const who = identity('Linked Reader');
  await onProvider(page, who);

  await expect(page).toHaveURL(/\/account\/?\?linked=google/);
  await expect(section.getByText('Google is now linked to your account.')).toBeVisible();
  await expect(section.getByText(`Linked (${who.email})`)).toBeVisible();
  await shot(page, 'account-en');

  // Logged out, Google signs into this account.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login?redirect=%2Faccount%2F');
  await page.getByRole('link', { name: 'Continue with Google' }).click();
  await onProvider(page, who);
  await expect(page).toHaveURL(/\/account\/?$/);
  await expect(section.getByText(`Linked (${who.email})`)).toBeVisible();

  await section.getByRole('button', { name: 'Unlink Google' }).click();
  await expect(section.getByText('Google is no longer linked.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Link Google' })).toBeVisible();

  // The same section in Sinhala.
  await context.addCookies([{ name: UI_LANG_COOKIE, value: 'si', url: BASE_URL }]);
  await page.reload();
  await expect(page.getByRole('region', { name: 'පිවිසීමේ ක්‍රම' })).toBeVisible();
  await shot(page, 'account-si');
});
