import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from './support/hydrated.ts';

/*
 * The mailing list in the browser: a visitor asks for a link on /mail/, the link read from the
 * outbox (DATA_DIR/mail-outbox/*.eml, as the inbox would have received it) opens the page, which
 * changes nothing until Subscribe is pressed; a new story's e-mail then carries an unsubscribe
 * link that works without login.
 */

const outbox = () => {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts');
  return path.join(dir, 'mail-outbox');
};

/** The plain text of an .eml as nodemailer writes it (quoted-printable, UTF-8). */
const plainText = (eml: string) => {
  const part = eml.split(/^Content-Type: text\/plain; charset=utf-8$/m)[1] ?? '';
  const body = part
    .split(/\n\n/)
    .slice(1)
    .join('\n\n')
    .split(/\n----_/)[0]!;
  const bytes = body
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => `%${hex}`)
    .replace(/%(?![0-9A-F]{2})/g, '%25');
  return decodeURIComponent(bytes);
};

/** The newest e-mail to `to` whose file name starts with `prefix`, once it has landed. */
async function mailTo(to: string, prefix: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      () => {
        let dir: string[];
        try {
          dir = readdirSync(outbox());
        } catch {
          return false;
        }
        for (const name of dir.filter((n) => n.startsWith(prefix) && n.endsWith('.eml'))) {
          const eml = readFileSync(path.join(outbox(), name), 'utf8');
          if (new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}$`, 'm').test(eml)) {
            text = plainText(eml);
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return text;
}

/** The /mail/ link in an e-mail, as a path on this server. */
const pageLink = (text: string) => {
  const url = new URL(/http:\/\/\S+\/mail\/\?\S+/.exec(text)![0]);
  return `${url.pathname}${url.search}`;
};

async function publishNewStory(request: APIRequestContext, title: string) {
  const login = await request.post('/api/v1/user/login', {
    data: { email: 'saman@demo.kathamala.lk', password: 'kathamala-demo' },
  });
  const token = (await login.json()).object.accesstoken as string;
  const headers = { authorization: `Bearer ${token}` };
  const story = await request.post('/api/v1/author/publish/story/webapp', {
    headers,
    data: {
      story: {
        title,
        description: 'A story for the mailing-list journey.',
        language: 'english',
        kind: 0,
        category: 'mystery',
        membersOnly: false,
        ongoing: true,
      },
    },
  });
  expect(story.ok()).toBe(true);
  const storyId = (await story.json()).object.storyId as number;
  const episode = await request.post('/api/v1/author/publish/episode/webapp', {
    headers,
    data: { episode: { storyId, title: 'One', content: '<p>Words.</p>', status: 'published' } },
  });
  expect(episode.ok()).toBe(true);
  return storyId;
}

test('a visitor joins the mailing list by the e-mailed link and leaves by a new-story e-mail', async ({
  page,
  request,
}) => {
  const email = `list.${Date.now()}@example.com`;
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });

  await page.goto('/mail/');
  await expect(page.getByRole('heading', { level: 1, name: 'Mailing list' })).toBeVisible();
  await page.getByLabel('E-mail address').fill('not an address');
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(
    page.getByText(`If ${email} can receive e-mail, a link is on its way.`),
  ).toBeVisible();

  const confirm = await mailTo(email, 'confirm-');
  expect(confirm).toContain('කතාමාලා තැපැල් ලැයිස්තුවට');
  await page.goto(pageLink(confirm));
  const masked = `${email.slice(0, 2)}***@example.com`;
  await expect(
    page.getByText(`${masked} will get an e-mail when a new story starts.`),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText(`Done: ${masked} is on the mailing list.`)).toBeVisible();

  const title = `The lighthouse keeper ${Date.now()}`;
  const storyId = await publishNewStory(request, title);
  const news = await mailTo(email, 'story-');
  expect(news).toContain(`"${title}"`);
  expect(news).toContain(`/details/${storyId}/1/`);

  await page.goto(pageLink(news));
  await expect(page.getByRole('heading', { name: 'Leave the mailing list' })).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText(`Done: ${masked} has left the mailing list.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe again' })).toBeVisible();

  await page.goto('/mail/?token=cut.short');
  await expect(page.getByText('This link is not complete.')).toBeVisible();
  expect(violations).toEqual([]);
});
