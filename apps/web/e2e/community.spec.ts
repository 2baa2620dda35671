import { deflateSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './support/hydrated.ts';
import { apiPaths, type CommunityMe } from '@kathamala/domain';
import { AppShell } from './pages/AppShell.ts';
import { call, newReader } from './support/api.ts';
import { useToken } from './support/session.ts';

/** The demo accounts' password (apps/server/src/db/seed). */
const DEMO_PASSWORD = 'kathamala-demo';
const EDITOR = 'editor@demo.kathamala.lk';

/** A small real PNG made here (a 96×72 saffron gradient): bytes the server judges and re-encodes. */
function png(width = 96, height = 72): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      rows.set([232, 151 - (y % 50), 47 + (x % 100)], y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function loginByApi(request: APIRequestContext, email: string, password: string) {
  const res = await request.post(apiPaths.login(), { data: { email, password } });
  expect(res.ok(), `login as ${email}`).toBe(true);
  return ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken;
}

async function joinByApi(request: APIRequestContext) {
  const account = newReader();
  const res = await request.post(apiPaths.signup(), { data: account });
  expect(res.ok(), 'signup').toBe(true);
  const token = ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken;
  return { ...account, token };
}

/**
 * A post by a new reader, approved by the demo admin: the feed then has more than one page
 * (the demo's twenty posts fill exactly one).
 */
async function approvedPost(request: APIRequestContext, text: string) {
  const writer = await joinByApi(request);
  const { post } = await call<{ post: { postId: number } }>(
    request,
    writer.token,
    'POST',
    '/api/v1/community/user/post',
    { text },
  );
  const admin = await loginByApi(request, 'admin@demo.kathamala.lk', DEMO_PASSWORD);
  await call(request, admin, 'POST', '/api/v1/community/review/post', {
    post_id: post.postId,
    decision: 'approve',
  });
}

/** The post whose text is `text`, as the page shows it. */
const postWith = (page: Page, text: string) => page.locator('article').filter({ hasText: text });

test.describe('community journey at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });

  test('a new reader posts with an image and waits for review; an editor approves it from the queue; another reader likes it and comments with a mention; the writer’s drawer shows both', async ({
    browser,
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const writer = await joinByApi(request);
    const text = `Tonight’s episode made me cry ${Date.now().toString(36)}`;

    // 1. The new reader posts with an image: it waits for review, and says so to its writer.
    await useToken(page, writer.token);
    await page.goto('/community');
    const composer = page.getByRole('region', { name: 'Write a post' });
    await composer.getByRole('textbox', { name: 'Write a post' }).fill(text);
    await composer
      .locator('input[type="file"]')
      .setInputFiles({ name: 'rain.png', mimeType: 'image/png', buffer: png() });
    await expect(composer.getByRole('img', { name: 'Image 1 to post' })).toBeVisible();
    const send = composer.getByRole('button', { name: 'Post', exact: true });
    await expect(send).toBeEnabled();
    await send.click();
    await expect(
      composer.getByText('Posted. It waits for review before others see it.'),
    ).toBeVisible();
    const mine = postWith(page, text).first();
    await expect(mine.getByText('Waiting for review')).toBeVisible();
    await expect(mine.getByRole('img', { name: /^Image 1 of the post by/ })).toBeVisible();
    // Others do not see it yet.
    const visitorFeed = await call<{ list: { text: string }[] }>(
      request,
      '',
      'GET',
      '/api/v1/community/feed?page=1',
    );
    expect(visitorFeed.list.map((p) => p.text)).not.toContain(text);

    // 2. An editor approves it from /community/reviews.
    const editorToken = await loginByApi(request, EDITOR, DEMO_PASSWORD);
    const me = await call<CommunityMe>(request, editorToken, 'GET', '/api/v1/community/user');
    expect(me.role).toBe('editor');
    const editorContext = await browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
    });
    const editorPage = await editorContext.newPage();
    await useToken(editorPage, editorToken);
    await editorPage.goto('/community/reviews');
    const item = editorPage.getByRole('listitem').filter({ hasText: text });
    await expect(item).toBeVisible();
    await expect(item.getByText(writer.username)).toBeVisible();
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect(item.getByText('Decided: Approve')).toBeVisible();
    await editorContext.close();

    // It is in the feed for everyone now.
    await expect
      .poll(async () =>
        (
          await call<{ list: { text: string }[] }>(
            request,
            '',
            'GET',
            '/api/v1/community/feed?page=1',
          )
        ).list.map((p) => p.text),
      )
      .toContain(text);

    // 3. Another reader likes it and comments with a mention of its writer.
    const reader = await joinByApi(request);
    const readerContext = await browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
    });
    const readerPage = await readerContext.newPage();
    await useToken(readerPage, reader.token);
    await readerPage.goto('/community');
    const post = postWith(readerPage, text).first();
    await expect(post).toBeVisible();
    const like = post.getByRole('button', { name: 'Like' });
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(post.getByText('1 like', { exact: true })).toBeVisible();
    await post.getByRole('button', { name: 'Comment', exact: true }).click();
    const box = post.getByRole('textbox', { name: 'Write a comment' });
    await box.click();
    await box.pressSequentially(`Me too @${writer.username.slice(0, 6)}`);
    await post.getByRole('option', { name: `@${writer.username}` }).click();
    await box.pressSequentially(' see you next week');
    await post.getByRole('button', { name: 'Comment', exact: true }).last().click();
    const comment = post.getByRole('listitem').filter({ hasText: 'see you next week' });
    await expect(comment).toBeVisible();
    await expect(comment.getByRole('link', { name: `@${writer.username}` })).toHaveAttribute(
      'href',
      /^\/profile\/\d+\/$/,
    );
    // The like was kept by the server, not just shown.
    await readerPage.reload();
    await expect(
      postWith(readerPage, text).first().getByRole('button', { name: 'Like' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await readerContext.close();

    // 4. The writer's drawer shows the like and the comment (sent through the job queue).
    await expect
      .poll(
        async () => {
          const res = await request.get('/api/v1/community/user/notifications?page=1', {
            headers: { authorization: `Bearer ${writer.token}` },
          });
          const body = (await res.json()) as { object: { list: { kind: string }[] } };
          const kinds = new Set(body.object.list.map((n) => n.kind));
          // Each event is its own job: wait for the like and for the comment's (or mention's).
          return kinds.has('like') && (kinds.has('comment') || kinds.has('mention'));
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.goto('/community');
    const menu = await new AppShell(page).menu();
    await menu.getByRole('button', { name: /^Notifications/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Notifications' });
    await expect(drawer.getByText(`${reader.username} · Liked your post`)).toBeVisible();
    await expect(
      drawer
        .getByText(new RegExp(`^${reader.username} · (Mentioned you|Commented on your post)$`))
        .first(),
    ).toBeVisible();
    await drawer
      .getByRole('link', { name: new RegExp(`${reader.username} · Liked your post`) })
      .click();
    await expect(page).toHaveURL(/\/community\/post\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: writer.username })).toBeVisible();
  });
});

test('a visitor reads /community with Login and Join where they would act; no axe violations in English and Sinhala', async ({
  page,
  context,
}) => {
  await page.goto('/community');
  await expect(page.getByRole('heading', { level: 1, name: 'Community' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByText('Log in or join to post, like, comment and share.')).toBeVisible();
  await expect(main.getByRole('link', { name: 'Login' }).first()).toHaveAttribute(
    'href',
    '/login?redirect=%2Fcommunity',
  );
  await expect(main.getByRole('textbox', { name: 'Write a post' })).toHaveCount(0);
  for (const lang of ['en', 'si']) {
    await context.addCookies([{ name: 'lang', value: lang, url: page.url() }]);
    await page.goto('/community');
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      violations.flatMap((v) => v.nodes.map((n) => `${lang} ${v.id}: ${n.target.join(' ')}`)),
    ).toEqual([]);
  }
});

test('without JavaScript the feed pages through plain Older posts links rendered on the server', async ({
  browser,
  request,
}) => {
  await approvedPost(request, `One more for page two ${Date.now().toString(36)}`);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/community');
  const older = page.getByRole('link', { name: 'Older posts' });
  await expect(older).toHaveAttribute('href', '/community?page=2');
  await older.click();
  await expect(page).toHaveURL(/\/community\?page=2$/);
  await expect(page.locator('article').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Newer posts' })).toHaveAttribute(
    'href',
    '/community',
  );
  await context.close();
});

test('with JavaScript, reaching the end of the feed loads the older posts below, at the same address', async ({
  page,
  request,
}) => {
  await approvedPost(request, `And one more ${Date.now().toString(36)}`);
  const second = await call<{ list: { postId: number }[] }>(
    request,
    '',
    'GET',
    '/api/v1/community/feed?page=2',
  );
  expect(second.list.length).toBeGreaterThan(0);
  await page.goto('/community');
  const older = page.locator(`article[data-post-id="${second.list[0]!.postId}"]`);
  await expect(older).toHaveCount(0);
  await page.getByRole('link', { name: 'Older posts' }).scrollIntoViewIfNeeded();
  await expect(older).toBeVisible();
  await expect(page).toHaveURL(/\/community$/);
});

test('two editors decide at once: the second is told in the server’s sentence; a reader meets a polite editors-only page; the admin reads the decision in the audit log', async ({
  browser,
  page,
  request,
}) => {
  const writer = await joinByApi(request);
  const text = `Held for the race ${Date.now().toString(36)}`;
  await call(request, writer.token, 'POST', '/api/v1/community/user/post', { text });

  const editorToken = await loginByApi(request, EDITOR, DEMO_PASSWORD);
  await useToken(page, editorToken);
  await page.goto('/community/reviews');
  const item = page.getByRole('listitem').filter({ hasText: text });
  await expect(item).toBeVisible();

  // The admin decides first, through the API, while the editor's page still shows the item.
  const adminToken = await loginByApi(request, 'admin@demo.kathamala.lk', DEMO_PASSWORD);
  const queue = await call<{ list: { target: { id: number; preview: string } }[] }>(
    request,
    adminToken,
    'GET',
    '/api/v1/community/reviews?page=1',
  );
  const target = queue.list.find((i) => i.target.preview === text)!.target;
  await call(request, adminToken, 'POST', '/api/v1/community/review/post', {
    post_id: target.id,
    decision: 'approve',
  });
  const answer = page.waitForResponse('**/api/v1/community/review/post');
  await item.getByRole('button', { name: 'Approve' }).click();
  expect((await answer).status()).toBe(409);
  await expect(item.getByRole('alert')).toHaveText(/already decided on this post \(approved\)/);

  // A reader who opens the queue is told, kindly, that it is for editors.
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  await useToken(readerPage, writer.token);
  await readerPage.goto('/community/reviews');
  await expect(readerPage.getByRole('heading', { name: 'Editors only' })).toBeVisible();
  await expect(readerPage.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await reader.close();

  // The admin page lists the decision in the audit log.
  await useToken(page, adminToken);
  await page.goto('/community/admin');
  const log = page.getByRole('region', { name: 'Audit log' });
  await expect(
    log
      .getByRole('row')
      .filter({ hasText: `post ${target.id}` })
      .first(),
  ).toBeVisible();
});

test('a writer edits their bio and deletes their own post; an editor pins one post and removes another with a reason', async ({
  browser,
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const writer = await joinByApi(request);
  const me = await call<CommunityMe>(request, writer.token, 'GET', '/api/v1/community/user');
  const admin = await loginByApi(request, 'admin@demo.kathamala.lk', DEMO_PASSWORD);
  const texts = [`Pin me ${stamp}`, `Remove me ${stamp}`, `Delete me ${stamp}`];
  const ids: number[] = [];
  for (const text of texts) {
    const { post } = await call<{ post: { postId: number } }>(
      request,
      writer.token,
      'POST',
      '/api/v1/community/user/post',
      { text },
    );
    await call(request, admin, 'POST', '/api/v1/community/review/post', {
      post_id: post.postId,
      decision: 'approve',
    });
    ids.push(post.postId);
  }

  // The writer's profile: a few words about themselves, saved and shown.
  await useToken(page, writer.token);
  await page.goto(`/profile/${me.userId}/`);
  await page.getByRole('button', { name: 'Edit profile' }).click();
  await page.getByRole('textbox', { name: 'About you' }).fill('මම රෑට කතා කියවනවා.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('මම රෑට කතා කියවනවා.')).toBeVisible();

  // Their own post goes when they delete it.
  await page.goto(`/community/post/${ids[2]}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page).toHaveURL(/\/community$/);
  const gone = await request.get(`/api/v1/community/post/${ids[2]}`);
  expect(gone.status()).toBe(404);

  // An editor pins one (it is on the Pinned tab) and removes another, saying why.
  const editor = await browser.newContext();
  const editorPage = await editor.newPage();
  await useToken(editorPage, await loginByApi(request, EDITOR, DEMO_PASSWORD));
  await editorPage.goto(`/community/post/${ids[0]}`);
  await editorPage.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(editorPage.getByRole('button', { name: 'Unpin' })).toBeVisible();
  await editorPage.goto('/community?tab=pinned');
  await expect(postWith(editorPage, texts[0]!)).toBeVisible();

  await editorPage.goto(`/community/post/${ids[1]}`);
  await editorPage.getByRole('button', { name: 'Remove', exact: true }).click();
  const dialog = editorPage.getByRole('dialog', { name: 'Remove this post' });
  await dialog.getByRole('textbox').fill('Advertising');
  await dialog.getByRole('button', { name: 'Remove post' }).click();
  await expect(editorPage).toHaveURL(/\/community$/);
  expect((await request.get(`/api/v1/community/post/${ids[1]}`)).status()).toBe(404);
  await editor.close();
});
