import { expect, test, type APIRequestContext } from './support/hydrated.ts';
import { apiPaths, detailsPath, type StoryListItem } from '@kathamala/domain';
import { AppShell } from './pages/AppShell.ts';
import { AuthPage } from './pages/AuthPage.ts';
import { call, findStory, newReader, partByApi, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

const freeStory = (request: APIRequestContext): Promise<StoryListItem> =>
  findStory(
    request,
    (s) => s.kind === 0 && !s.membersOnly && s.numberOfparts >= 2,
    'free text story with two or more episodes',
  );

test('a bookmarked story is on /bookmarks with Continue at the part the reader reached', async ({
  page,
  request,
}) => {
  const story = await freeStory(request);
  const token = await signupByApi(request);
  await call(request, token, 'GET', apiPaths.bookmark(story.storyId, 1));
  await call(request, token, 'POST', apiPaths.progress(), {
    storyId: story.storyId,
    partNumber: 2,
    position: 0.3,
  });

  await useToken(page, token);
  await page.goto('/');
  await (await new AppShell(page).menu()).getByRole('link', { name: 'Bookmarks' }).click();
  await expect(page).toHaveURL(/\/bookmarks\/$/);
  const item = page.getByRole('listitem').filter({ hasText: story.title });
  await expect(item).toBeVisible();
  await expect(item.getByText(`Part 2 of ${story.numberOfparts}`)).toBeVisible();
  const continueLink = item.getByRole('link', { name: /^Continue/ });
  // Continue brings the reader back to where they stopped inside the part, too.
  await expect(continueLink).toHaveAttribute('href', `${detailsPath(story.storyId, 2)}#at=0.3`);

  // Home offers the same place to pick up from.
  await page.goto('/');
  const row = page.getByRole('region', { name: 'Continue reading' });
  await expect(row.getByRole('link', { name: story.title })).toHaveAttribute(
    'href',
    `${detailsPath(story.storyId, 2)}#at=0.3`,
  );

  await page.goto('/bookmarks/');
  await page
    .getByRole('listitem')
    .filter({ hasText: story.title })
    .getByRole('link', { name: /^Continue/ })
    .click();
  // The page scrolls to the saved place, then drops the fragment (a reload starts at the top).
  await expect(page).toHaveURL(new RegExp(`${detailsPath(story.storyId, 2)}$`));
  // The saved place is in view: the screen ends where the reader stopped, 30% into the text,
  // as the page measures it. Asked of the text itself, not as a scroll in pixels, which
  // depends on the fonts a machine has.
  const seenOfText = () =>
    page.locator('[data-episode-text]').evaluate((text) => {
      const box = text.getBoundingClientRect();
      return (window.innerHeight - box.top) / box.height;
    });
  await expect.poll(seenOfText).toBeCloseTo(0.3, 1);
});

test('a visitor on /bookmarks is asked to log in and comes back; no bookmarks says so kindly', async ({
  page,
  request,
}) => {
  await page.goto('/bookmarks/');
  await expect(page.getByText('Log in to see the stories you bookmarked.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fbookmarks%2F$/);

  const account = newReader();
  await request.post(apiPaths.signup(), { data: account });
  await new AuthPage(page).login(account);
  await expect(page).toHaveURL(/\/bookmarks\/$/);
  await expect(page.getByText(/^No bookmarks yet\./)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse stories' })).toBeVisible();
});

test('a reader follows an author on their page, sees them on /account and unfollows there', async ({
  page,
  request,
}) => {
  const story = await freeStory(request);
  const { authorId, name } = story.author;
  await useToken(page, await signupByApi(request));

  await page.goto(apiPaths.authorPage(authorId));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  const count = page.getByText(/^\d+ followers?$/);
  await expect(count).toBeVisible();
  const before = parseInt((await count.textContent())!, 10);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Following', exact: true })).toBeVisible();
  await expect(count).toHaveText(before + 1 === 1 ? '1 follower' : `${before + 1} followers`);

  await (await new AppShell(page).menu()).getByRole('link', { name: 'Account' }).click();
  const following = page.getByRole('region', { name: 'Following' });
  await expect(following.getByRole('link', { name })).toHaveAttribute(
    'href',
    apiPaths.authorPage(authorId),
  );
  await following.getByRole('button', { name: `Unfollow ${name}` }).click();
  await expect(following.getByText(/You are not following anyone yet/)).toBeVisible();
});

test('a visitor sees the follower count and Follow goes to login and back', async ({
  page,
  request,
}) => {
  const story = await freeStory(request);
  const here = apiPaths.authorPage(story.author.authorId);
  await page.goto(here);
  await expect(page.getByText(/^\d+ followers?$/)).toBeVisible();
  await page.getByRole('link', { name: 'Follow', exact: true }).click();
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(here)}`);
});

test('an author sees no Follow button on their own page', async ({ page, request }) => {
  const login = await request.post(apiPaths.login(), {
    data: { email: 'nilmini@demo.kathamala.lk', password: 'kathamala-demo' },
  });
  const token = ((await login.json()) as { object: { accesstoken: string } }).object.accesstoken;
  const stories = await call<{ stories: { storyId: number; numberOfparts: number }[] }>(
    request,
    token,
    'GET',
    apiPaths.ownStories(),
  );
  // Other journeys give this author new drafts, which have no public preview: take one that is out.
  const out = stories.stories.find((s) => s.numberOfparts > 0)!;
  const preview = await call<{ author: { authorId: number } }>(
    request,
    token,
    'GET',
    apiPaths.preview(out.storyId),
  );
  await useToken(page, token);
  await page.goto(apiPaths.authorPage(preview.author.authorId));
  await expect(page.getByText(/^\d+ followers?$/)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Follow/ })).toHaveCount(0);
});

test('another reader replies to a comment: the badge appears, clears on open, and the notice opens the story', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const story = await freeStory(request);
  const commenter = await signupByApi(request);
  const replier = await signupByApi(request);
  const part = await partByApi(request, commenter, story.storyId, 1);
  const { comment } = await call<{ comment: { commentId: number } }>(
    request,
    commenter,
    'POST',
    apiPaths.comment(),
    {
      storyId: story.storyId,
      episodeId: part.part.episodeId,
      feedback: 'Lovely start.',
      platform: 'web',
    },
  );
  await call(request, replier, 'POST', apiPaths.reply(), {
    commentId: comment.commentId,
    reply: '<b>Agreed</b>, and the ending too!',
    platform: 'web',
  });

  await useToken(page, commenter);
  // The notice is made by a job (polled every 2 s); the badge asks on load and on focus.
  await expect
    .poll(
      async () =>
        (await call<{ unread: number }>(request, commenter, 'GET', apiPaths.unreadNotifications()))
          .unread,
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  await page.goto('/');
  const menu = await new AppShell(page).menu();
  const bell = menu.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications 1 unread');

  await bell.click();
  const drawer = page.getByRole('dialog', { name: 'Notifications' });
  await expect(drawer).toBeVisible();
  const box = await drawer.boundingBox();
  expect(Math.round(box!.width)).toBe(260);
  const notice = drawer.getByRole('link', { name: /New comment/ });
  await expect(notice).toBeVisible();
  // What a reader typed is text, never markup.
  await expect(notice).toContainText('<b>Agreed</b>');
  await expect(bell).toHaveAccessibleName('Notifications');

  await notice.click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(detailsPath(story.storyId, 1));

  // Escape closes the drawer; an empty list would say so.
  await bell.click();
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
});

test('on a phone the drawer opens from the menu, says kindly that nothing is new, and closes', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const token = await signupByApi(request);
  await useToken(page, token);
  await page.goto('/');
  const menuButton = page.locator('summary', { hasText: 'Menu' });
  await menuButton.click();
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Notifications' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText(/^Nothing new yet\./)).toBeVisible();
  await drawer.getByRole('button', { name: 'Close notifications' }).click();
  await expect(drawer).toBeHidden();
});

test('the menu shows a reader and an author the right items; a visitor gets Login and Join', async ({
  page,
  request,
}) => {
  const shell = new AppShell(page);
  await page.goto('/');
  let menu = await shell.menu();
  for (const name of ['Home', 'Categories', 'Leaderboard', 'Login', 'Join'])
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Bookmarks' })).toBeHidden();

  await useToken(page, await signupByApi(request));
  await page.goto('/');
  menu = await shell.menu();
  for (const name of ['Leaderboard', 'Write a story', 'Bookmarks', 'Account'])
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
  for (const name of ['Notifications', 'Logout'])
    await expect(menu.getByRole('button', { name, exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Statistics' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);

  const login = await request.post(apiPaths.login(), {
    data: { email: 'saman@demo.kathamala.lk', password: 'kathamala-demo' },
  });
  await useToken(
    page,
    ((await login.json()) as { object: { accesstoken: string } }).object.accesstoken,
  );
  await page.goto('/');
  menu = await shell.menu();
  for (const name of ['Leaderboard', 'Write a story', 'Statistics', 'Bookmarks', 'Account'])
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();

  // The leaderboard page exists for everyone, rendered on the server.
  const response = await page.goto('/leaderboard/');
  expect(response!.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Leaderboard', level: 1 })).toBeVisible();
  // The author rankings themselves are checked in leaderboard.spec.ts.
  await expect(page.getByRole('heading', { name: /Most read authors/ })).toBeVisible();
});

test('Login from the header of a story page comes back to the story', async ({ page, request }) => {
  const story = await freeStory(request);
  const account = newReader();
  await request.post(apiPaths.signup(), { data: account });

  await page.goto(detailsPath(story.storyId, 2));
  const menu = await new AppShell(page).menu();
  await menu.getByRole('link', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(
    `/login?redirect=${encodeURIComponent(detailsPath(story.storyId, 2))}`,
  );
  await new AuthPage(page).login(account);
  await expect(page).toHaveURL(detailsPath(story.storyId, 2));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(story.title);
});

test('the account page refuses a too-short or taken username with a clear message', async ({
  page,
  request,
}) => {
  const other = newReader();
  await request.post(apiPaths.signup(), { data: other });
  await useToken(page, await signupByApi(request));
  await page.goto('/account');
  const field = page.getByLabel('New username');
  await field.fill('ab');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Use 3 to 30 characters.')).toBeVisible();
  await field.fill(other.username.toUpperCase());
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('That username is taken. Please choose another.')).toBeVisible();
});
