import { expect, test, type APIRequestContext, type Page } from './support/hydrated.ts';
import {
  apiPaths,
  COMMENT_PLATFORM,
  detailsPath,
  MEMBERSHIP_MESSAGES,
  UI_LANG_COOKIE,
} from '@kathamala/domain';
import { StoryPage } from './pages/StoryPage.ts';
import { findStory, newReader, partByApi, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

/*
 * Rough edges a new reader or author trips over (issue 27), each as a person meets it on a
 * 375 px phone: a mistyped code, Remove on a response, taking a rating back, the story form's
 * kinds, mentions, the e-mail on the account page and the focus after a failed sign-up. The
 * anti-copy guard's word on the home page starts on a desktop window that is then narrowed.
 */

const phone = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

const freeTextStory = (request: APIRequestContext) =>
  findStory(request, (s) => s.kind === 0 && !s.membersOnly, 'free text story');

/** A new account's token, name and user id. */
async function newAccount(request: APIRequestContext) {
  const account = newReader();
  const res = await request.post(apiPaths.signup(), { data: account });
  expect(res.status(), await res.text()).toBe(200);
  const token = ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken;
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    sub: string;
  };
  return { ...account, token, userId: Number(claims.sub) };
}

/** The answer of the next rating call the page sends with this value. */
const ratingSent = (page: Page, rating: string) =>
  page.waitForResponse(
    (r) =>
      r.url().includes('/api/v1/story/rate/') &&
      r.request().method() === 'POST' &&
      (r.request().postDataJSON() as { rating: string }).rating === rating,
  );

/** Opens part 1 and brings its responses (loaded when near) into view. */
async function openResponses(page: Page, storyId: number) {
  await page.goto(detailsPath(storyId, 1));
  await page
    .getByRole('heading', { name: /^(Rate|Clap for) this story$/ })
    .scrollIntoViewIfNeeded();
  const box = page.getByRole('textbox', { name: 'Write a response' });
  await box.scrollIntoViewIfNeeded();
  return { box, section: page.getByRole('region', { name: /^Responses/ }) };
}

test.describe('on a 375 px phone', () => {
  test.use(phone);

  test('a mistyped subscription code is said at the code field, not as a failure to subscribe', async ({
    page,
    request,
  }) => {
    const story = await findStory(
      request,
      (s) => s.membersOnly && s.kind === 0,
      'members-only text story',
    );
    await useToken(page, await signupByApi(request));
    const storyPage = new StoryPage(page);
    await storyPage.open(story.storyId);
    const wall = storyPage.subscriptionWall;
    // A Hutch number no other journey uses.
    const mobile = `078${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    await wall.getByLabel('Your mobile number').fill(mobile);
    await wall.getByRole('button', { name: 'Send code' }).click();
    const codeField = wall.getByLabel('Subscription code');
    await expect(codeField).toBeFocused();

    // The code sent is random: one in a million is 000000 itself.
    await codeField.fill('000000');
    await wall.getByRole('button', { name: 'Verify code' }).click();
    await expect(
      wall.getByText('That code is not right. 2 tries left.', { exact: true }),
    ).toBeVisible();
    await expect(codeField).toHaveAttribute('aria-invalid', 'true');
    await expect(codeField).toBeFocused();
    await expect(page.getByText(MEMBERSHIP_MESSAGES.subscribeFailed)).toHaveCount(0);
    // Typing again clears the reason.
    await codeField.fill('1');
    await expect(wall.getByText('That code is not right. 2 tries left.')).toHaveCount(0);
  });

  test('a failed sign-up puts the focus on the first field in error, as they stand', async ({
    page,
    request,
  }) => {
    const taken = newReader();
    expect((await request.post(apiPaths.signup(), { data: taken })).status()).toBe(200);
    await page.goto('/signup');
    const username = page.getByLabel('Username');
    const email = page.getByLabel('Email');
    const submit = page.getByRole('button', { name: 'Create account' });

    // Nothing filled in: Username is the first field, and the first in error.
    await submit.click();
    await expect(username).toBeFocused();

    const fresh = newReader();
    await username.fill(fresh.username);
    await email.fill('not an address');
    await page.getByLabel('Password').fill(fresh.password);
    await submit.click();
    await expect(email).toBeFocused();

    // The server refuses a username already taken: said at Username, which takes the focus.
    await username.fill(taken.username);
    await email.fill(fresh.email);
    await submit.click();
    await expect(page.getByText('That username is taken. Please choose another.')).toBeVisible();
    await expect(username).toBeFocused();
    await expect(username).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('the story form names its kinds for authors, in English and Sinhala', async ({
    page,
    request,
    baseURL,
  }) => {
    const res = await request.post(apiPaths.login(), {
      data: { email: 'nilmini@demo.kathamala.lk', password: 'kathamala-demo' },
    });
    await useToken(
      page,
      ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken,
    );
    await page.goto('/publish/story/');
    await page.getByRole('link', { name: 'New story' }).first().click();
    const kind = page.getByRole('combobox', { name: 'Kind', exact: true });
    await expect(kind.locator('option')).toHaveText([
      'Story in episodes',
      'Collection of short pieces',
      'Poetry',
    ]);
    await expect(kind).toHaveAccessibleDescription(/readers clap for it/);

    await page.context().addCookies([{ name: UI_LANG_COOKIE, value: 'si', url: baseURL! }]);
    await page.reload();
    // The new story's form stays open across the reload.
    const kindSi = page.getByRole('combobox', { name: 'වර්ගය', exact: true });
    await expect(kindSi.locator('option')).toHaveText(['කොටස් වශයෙන් කතාවක්', 'කෙටි රචනා එකතුවක්', 'කවි']);
  });

  test('the account page wraps a long e-mail address at its @, never inside a word', async ({
    page,
    request,
  }) => {
    const account = {
      ...newReader(),
      email: `readerwithalongname${Date.now().toString(36)}@mail.examplebookshop.com`,
    };
    const res = await request.post(apiPaths.signup(), { data: account });
    await useToken(
      page,
      ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken,
    );
    await page.goto('/account/');
    const shown = page.getByRole('definition').filter({ hasText: account.email });
    await expect(shown).toBeVisible();
    const layout = await shown.evaluate((dd, at) => {
      const nodes: Text[] = [];
      const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
      /** The text node and offset of a character offset in the whole text. */
      const point = (offset: number): [Text, number] => {
        for (const node of nodes) {
          if (offset <= node.data.length) return [node, offset];
          offset -= node.data.length;
        }
        const last = nodes[nodes.length - 1]!;
        return [last, last.data.length];
      };
      /** On how many lines the characters from..to lie. */
      const lines = (from: number, to: number) => {
        const range = document.createRange();
        range.setStart(...point(from));
        range.setEnd(...point(to));
        const tops = [...range.getClientRects()]
          .filter((box) => box.width > 0)
          .map((box) => Math.round(box.top));
        return new Set(tops).size;
      };
      const length = nodes.reduce((n, node) => n + node.data.length, 0);
      return {
        name: lines(0, at),
        domain: lines(at, length),
        pageWidth: document.documentElement.scrollWidth,
      };
    }, account.email.indexOf('@'));
    expect(layout).toEqual({ name: 1, domain: 1, pageWidth: 375 });
  });

  test('Remove on a response asks first: Keep it keeps it, Yes removes it', async ({
    page,
    request,
  }) => {
    const story = await freeTextStory(request);
    const reader = await newAccount(request);
    const part = await partByApi(request, reader.token, story.storyId, 1);
    const words = `Mine to remove ${Date.now().toString(36)}`;
    const posted = await request.post(apiPaths.comment(), {
      headers: { authorization: `Bearer ${reader.token}` },
      data: {
        storyId: story.storyId,
        episodeId: part.part.episodeId,
        feedback: words,
        platform: COMMENT_PLATFORM,
      },
    });
    expect(posted.status()).toBe(200);
    await useToken(page, reader.token);
    const { section } = await openResponses(page, story.storyId);
    const mine = section.getByRole('listitem').filter({ hasText: words });
    const deletes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE') deletes.push(r.url());
    });

    // One tap asks; nothing is sent, and the focus is on Keep it.
    await mine.getByRole('button', { name: 'Remove' }).tap();
    const ask = mine.getByRole('group', { name: 'Remove this response for good?' });
    await expect(ask).toBeVisible();
    await expect(ask.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await ask.getByRole('button', { name: 'Keep it' }).tap();
    await expect(ask).toHaveCount(0);
    await expect(mine.getByRole('button', { name: 'Remove' })).toBeFocused();
    expect(deletes).toHaveLength(0);

    await mine.getByRole('button', { name: 'Remove' }).tap();
    await mine.getByRole('button', { name: 'Yes, remove' }).tap();
    await expect(section.getByRole('listitem').filter({ hasText: words })).toHaveCount(0);
    expect(deletes).toHaveLength(1);
    await page.reload();
    await openResponses(page, story.storyId);
    await expect(section.getByText(words)).toHaveCount(0);
  });

  test('a reader changes and takes back claps, and clears stars', async ({ page, request }) => {
    const clapStory = await findStory(
      request,
      (s) => (s.kind === 2 || s.kind === 3) && !s.membersOnly,
      'free clap story',
    );
    await useToken(page, await signupByApi(request));
    await page.goto(detailsPath(clapStory.storyId, 1));
    const claps = page.getByRole('region', { name: 'Clap for this story' });
    await claps.scrollIntoViewIfNeeded();
    const clap = claps.getByRole('button', { name: 'Clap', exact: true });
    const count = claps.getByTestId('clap-count');
    let sent = ratingSent(page, '5');
    for (let i = 0; i < 5; i++) await clap.click();
    await sent;
    await expect(count).toHaveText('5');
    await expect(clap).toBeDisabled();

    // At 5 a clap can still be taken back: two of them, sent as one rating of 3.
    const takeBack = claps.getByRole('button', { name: 'Take a clap back' });
    sent = ratingSent(page, '3');
    await takeBack.click();
    await takeBack.click();
    await sent;
    await expect(count).toHaveText('3');
    await expect(clap).toBeEnabled();
    await page.reload();
    await claps.scrollIntoViewIfNeeded();
    await expect(count).toHaveText('3');

    // Down to none: the rating is gone, not a rating of 0.
    sent = ratingSent(page, '0');
    for (let i = 0; i < 3; i++) await takeBack.click();
    expect((await (await sent).json()).object.userRating).toBe(0);
    await expect(claps.getByText('Your rating is taken back.')).toBeVisible();
    await expect(takeBack).toHaveCount(0);
    await page.reload();
    await claps.scrollIntoViewIfNeeded();
    await expect(count).toHaveText('0');

    // Stars: rated, then cleared.
    const starStory = await freeTextStory(request);
    await page.goto(detailsPath(starStory.storyId, 1));
    const stars = page.getByRole('region', { name: 'Rate this story' });
    await stars.scrollIntoViewIfNeeded();
    sent = ratingSent(page, '4');
    await stars.getByTestId('star-4').click({ position: { x: 20, y: 10 } });
    await sent;
    const slider = stars.getByRole('slider', { name: 'Your rating' });
    await expect(slider).toHaveAttribute('aria-valuetext', '4 stars');
    sent = ratingSent(page, '0');
    await stars.getByRole('button', { name: 'Clear my rating' }).click();
    await sent;
    await expect(stars.getByText('Your rating is taken back.')).toBeVisible();
    await page.reload();
    await stars.scrollIntoViewIfNeeded();
    await expect(slider).toHaveAttribute('aria-valuetext', 'Not rated yet');
  });

  test('a mention in a posted response is a link to the person mentioned', async ({
    page,
    request,
  }) => {
    const story = await freeTextStory(request);
    const them = await newAccount(request);
    const part = await partByApi(request, them.token, story.storyId, 1);
    const res = await request.post(apiPaths.comment(), {
      headers: { authorization: `Bearer ${them.token}` },
      data: {
        storyId: story.storyId,
        episodeId: part.part.episodeId,
        feedback: `Read on, friends ${Date.now().toString(36)}`,
        platform: COMMENT_PLATFORM,
      },
    });
    expect(res.status()).toBe(200);

    await useToken(page, (await newAccount(request)).token);
    const { box, section } = await openResponses(page, story.storyId);
    const words = `Thanks @${them.username} for <b>this</b>`;
    await box.fill(words);
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    const mine = section.getByRole('listitem').filter({ hasText: words });
    await expect(mine).toBeVisible();
    const link = mine.getByRole('link', { name: `@${them.username}`, exact: true });
    const profile = `/profile/${them.userId}/`;
    await expect(link).toHaveAttribute('href', profile);
    // The writer's markup stays text.
    await expect(mine.locator('b')).toHaveCount(0);

    await link.click();
    await expect(page).toHaveURL(new RegExp(`${profile}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(them.username);
    await expect(page.getByText(/^Reading on Kathamala since /)).toBeVisible();
  });
});

test('a narrowed desktop window is sent home with a word on why, and a way back', async ({
  page,
  request,
}) => {
  const story = await freeTextStory(request);
  await page.goto(detailsPath(story.storyId, 1));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 720 });
  await expect(page).toHaveURL((url) => url.pathname === '/');
  const notice = page.getByRole('status').filter({ hasText: /^We closed the story because/ });
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  await expect(notice.getByRole('link', { name: 'Back to the story' })).toHaveAttribute(
    'href',
    detailsPath(story.storyId, 1),
  );
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect(notice).toHaveCount(0);
});
