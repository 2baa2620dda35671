import { expect, test, type APIRequestContext } from './support/hydrated.ts';
import {
  apiPaths,
  detailsPath,
  episodePlainText,
  PRODUCT_APP_ID,
  STORY_MESSAGES,
  type StoryDetails,
  type StoryListItem,
} from '@kathamala/domain';
import { AuthPage } from './pages/AuthPage.ts';
import { StoryPage } from './pages/StoryPage.ts';
import { allStories, call, findStory, newReader, partByApi, signupByApi } from './support/api.ts';
import { codeFromOutbox, joinByApi, newMobile } from './support/carrier.ts';
import { useToken } from './support/session.ts';

/*
 * What a new reader and a new author trip over (issue 27): what a membership opens, joins counted
 * for the author, an upcoming story's page, a part past the last, one reading place, a visitor's
 * opening of part 1, and a Follow that never undoes itself. On a 375 px phone.
 */

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

const previewOf = (request: APIRequestContext, storyId: number) =>
  call<StoryDetails>(request, '', 'GET', apiPaths.preview(storyId));

/** A members-only text story whose author's app is (or is not) Kathamala's own. */
async function membersStory(request: APIRequestContext, ownApp: boolean) {
  for (const story of await allStories(request)) {
    if (!story.membersOnly) continue;
    const details = await previewOf(request, story.storyId);
    if ((details.author.appId !== PRODUCT_APP_ID) === ownApp) return { story, details };
  }
  throw new Error(
    `The demo data has no members-only story on ${ownApp ? 'an author' : 'the product'} app`,
  );
}

/** A new author (an account registered as one) with a story of one published episode. */
async function newAuthorWithStory(request: APIRequestContext, membersOnly: boolean) {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const account = newReader();
  const signup = await call<{ accesstoken: string }>(
    request,
    '',
    'POST',
    apiPaths.signup(),
    account,
  );
  const author = await call<{ accesstoken: string; authorId: number }>(
    request,
    signup.accesstoken,
    'POST',
    apiPaths.registerAuthor(),
    { name: `Author ${stamp}` },
  );
  const { storyId } = await call<{ storyId: number }>(
    request,
    author.accesstoken,
    'POST',
    apiPaths.publishStory(),
    {
      story: {
        title: `Members Count ${stamp}`,
        description: 'A story whose wall counts who joins through it.',
        language: 'english',
        kind: 0,
        category: 'mystery',
        membersOnly,
      },
    },
  );
  await call(request, author.accesstoken, 'POST', apiPaths.publishEpisode(), {
    episode: {
      storyId,
      title: 'The Only Part',
      content: '<p>Words for members only.</p>',
      status: 'published',
    },
  });
  return { account, authorId: author.authorId, storyId };
}

test("the wall says whose stories a membership opens, the account lists it, and join again names that membership's keyword", async ({
  page,
  request,
}) => {
  const own = await membersStory(request, true);
  const product = await membersStory(request, false);
  const token = await signupByApi(request);
  await useToken(page, token);
  const storyPage = new StoryPage(page);

  await storyPage.open(own.story.storyId);
  const wall = storyPage.subscriptionWall;
  await expect(wall).toContainText(
    `This membership opens every members-only story and episode by ${own.details.author.name}.`,
  );
  await expect(wall).not.toContainText('Members read every members-only story');
  await storyPage.open(product.story.storyId);
  await expect(wall).toContainText("This is Kathamala's own membership");
  await expect(wall).not.toContainText('Members read every members-only story');

  // A member of the author's own app: the account page says what it opens.
  await joinByApi(request, token, own.details.author.appId);
  await page.goto('/account');
  const item = page.getByRole('region', { name: 'Memberships' }).getByRole('listitem');
  await expect(item).toContainText(
    `Opens the members-only stories and episodes by ${own.details.author.name}.`,
  );
  await item.getByRole('button', { name: /^Leave/ }).click();
  await item.getByRole('button', { name: 'Yes, leave' }).click();
  // Joining again is that membership's keyword, not Kathamala's.
  await expect(item).toContainText(`To join again, text ${own.details.author.keyword} to 77100`);
  await expect(page.getByRole('main')).not.toContainText('REG KATHAMALA');
  await page.screenshot({ path: test.info().outputPath('account-375.png'), fullPage: true });
});

test("a join through a story's wall shows in its author's Members gained on /statistics/", async ({
  page,
  request,
}) => {
  const author = await newAuthorWithStory(request, true);
  await useToken(page, await signupByApi(request));
  const storyPage = new StoryPage(page);
  await storyPage.open(author.storyId);
  const wall = storyPage.subscriptionWall;
  const mobile = newMobile();
  await wall.getByLabel('Your mobile number').fill(mobile.typed);
  await wall.getByRole('button', { name: 'Send code' }).click();
  await wall.getByLabel('Subscription code').fill(await codeFromOutbox(mobile.normalized));
  const reloaded = page.waitForEvent('load', { timeout: 15_000 });
  await wall.getByRole('button', { name: 'Verify code' }).click();
  await reloaded;
  await expect(page.locator('[data-episode-text]')).toBeVisible();

  // The author logs in (the page knows an author by the login's claims) and looks.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await new AuthPage(page).login(author.account);
  await expect(page).toHaveURL('/');
  await page.goto('/statistics/');
  await expect(page.locator('[data-figure="membersGained"] dd').first()).toHaveText('1');
});

test("an upcoming story's page gives its release day and the server's sentence, reached from Coming soon", async ({
  page,
  request,
}) => {
  await page.goto('/');
  const soon = page.getByRole('region', { name: 'Coming soon' });
  const card = soon.getByRole('listitem').first();
  const title = (await card.getByRole('heading').textContent())!.trim();
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/details\/\d+\/$/);
  const storyId = Number(/\/details\/(\d+)\//.exec(page.url())![1]);
  const { story } = await previewOf(request, storyId);
  expect(story.releaseDate).toBeDefined();

  // As a visitor and as a reader: the day and the sentence, no pager, no error, no wall.
  const saysWhen = async () => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText(STORY_MESSAGES.notOutYet)).toBeVisible();
    await expect(page.locator(`time[datetime="${story.releaseDate}"]`)).toContainText(/^Out on /);
    await expect(new StoryPage(page).pager).toHaveCount(0);
    await expect(page.getByText('We could not load this episode')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.getByText(/\d+ parts?\b/)).toHaveCount(0);
  };
  await saysWhen();
  await useToken(page, await signupByApi(request));
  await page.goto(detailsPath(storyId));
  await saysWhen();
  await page.screenshot({ path: test.info().outputPath('upcoming-375.png'), fullPage: true });
});

test('a part past the last one is a 404 not-found page, for a visitor and a reader', async ({
  page,
  request,
}) => {
  const story = await findStory(request, (s) => s.kind === 0 && !s.membersOnly, 'free text story');
  const past = detailsPath(story.storyId, story.numberOfparts + 1);
  const notFound = async () => {
    const response = await page.goto(past);
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    await expect(new StoryPage(page).pager).toHaveCount(0);
    await expect(page.getByText('We could not load this episode')).toHaveCount(0);
  };
  await notFound();
  await useToken(page, await signupByApi(request));
  await notFound();
  // Reached inside the app too (no server answer in between): the same page.
  await page.goto(detailsPath(story.storyId, story.numberOfparts));
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, past);
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
});

test('/bookmarks/ and home name the same part for the same progress', async ({ page, request }) => {
  const story = await findStory(
    request,
    (s) => s.kind === 0 && !s.membersOnly && s.numberOfparts >= 3,
    'free text story with three or more episodes',
  );
  const token = await signupByApi(request);
  await call(request, token, 'GET', apiPaths.bookmark(story.storyId, 1));
  // Part 1 read to its end: where the reader goes on is part 2.
  await call(request, token, 'POST', apiPaths.progress(), {
    storyId: story.storyId,
    partNumber: 1,
    position: 0.99,
  });
  const place = `Part 2 of ${story.numberOfparts}`;
  await useToken(page, token);

  await page.goto('/bookmarks/');
  const item = page.getByRole('listitem').filter({ hasText: story.title });
  await expect(item.getByText(place, { exact: true })).toBeVisible();
  const fromBookmarks = await item.getByRole('link', { name: /^Continue/ }).getAttribute('href');

  await page.goto('/');
  const row = page.getByRole('region', { name: 'Continue reading' }).getByRole('listitem');
  const entry = row.filter({ hasText: story.title });
  await expect(entry.getByText(place, { exact: true })).toBeVisible();
  await expect(entry.getByRole('link', { name: story.title })).toHaveAttribute(
    'href',
    fromBookmarks!,
  );
  expect(fromBookmarks).toBe(detailsPath(story.storyId, 2));
});

test("a visitor reads the opening of a free story's part 1 and then the wall; a members-only story shows only its description", async ({
  page,
  request,
}) => {
  const story = await findStory(
    request,
    (s: StoryListItem) => s.kind === 0 && !s.membersOnly && s.language === 'english',
    'free English text story',
  );
  const full = await partByApi(request, await signupByApi(request), story.storyId, 1);
  const text = episodePlainText(full.part.content!);
  const storyPage = new StoryPage(page);
  await storyPage.open(story.storyId);

  const opening = page.locator('[data-opening]');
  await expect(opening).toBeVisible();
  const shown = (await opening.innerText()).replace(/\s+/g, ' ').trim();
  expect(text.replace(/\s+/g, ' ').startsWith(shown)).toBe(true);
  const words = shown.split(' ').length;
  expect(words).toBeGreaterThan(40);
  expect(words).toBeLessThanOrEqual(150);
  // Then the wall, with Login and Join; the rest of the part is nowhere in the page.
  await expect(storyPage.visitorWall).toBeVisible();
  const openingBox = (await opening.boundingBox())!;
  expect((await storyPage.visitorWall.boundingBox())!.y).toBeGreaterThan(openingBox.y);
  await expect(storyPage.wallLink('Login')).toBeVisible();
  await expect(storyPage.wallLink('Join')).toBeVisible();
  await expect(page.locator('[data-episode-text]')).toHaveCount(0);
  const lastLine = text.trim().split('\n').at(-1)!.slice(-60);
  expect(await page.content()).not.toContain(lastLine);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(
    375,
  );
  await page.screenshot({ path: test.info().outputPath('opening-375.png'), fullPage: true });

  const members = await findStory(request, (s) => s.membersOnly, 'members-only story');
  await storyPage.open(members.storyId);
  await expect(storyPage.visitorWall).toContainText(
    'This story is for members. Log in, or join Kathamala free',
  );
  await expect(page.locator('[data-opening]')).toHaveCount(0);
});

test('the author page shows a follow from before the user was an author, and a tap sends the state asked for', async ({
  page,
  request,
}) => {
  const me = await signupByApi(request);
  const later = await signupByApi(request);
  const { userId } = await call<{ userId: number }>(request, later, 'GET', apiPaths.me());
  await call(request, me, 'PUT', apiPaths.follow(), { followed_id: userId });
  const author = await call<{ authorId: number }>(
    request,
    later,
    'POST',
    apiPaths.registerAuthor(),
    {
      name: `Later Author ${Date.now().toString(36)}`,
    },
  );

  const sent: unknown[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith(apiPaths.follow())) sent.push(r.postDataJSON());
  });
  await useToken(page, me);
  await page.goto(apiPaths.authorPage(author.authorId));
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();
  const following = page.getByRole('button', { name: 'Following', exact: true });
  await expect(following).toBeVisible();
  await following.click();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  await expect(page.getByText('0 followers', { exact: true })).toBeVisible();
  expect(sent).toEqual([{ followed_id: userId, following: false }]);

  // Followed meanwhile on another device (an older client's toggle): the Follow still on this
  // page keeps it, never undoes it.
  await call(request, me, 'PUT', apiPaths.follow(), { followed_id: userId });
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(following).toBeVisible();
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();
  expect(sent.at(-1)).toEqual({ followed_id: userId, following: true });
});
