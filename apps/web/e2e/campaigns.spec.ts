import { readFileSync } from 'node:fs';
import { expect, test } from './support/hydrated.ts';
import { campaignPaths, type CampaignSummary, type ManagedCampaign } from '@kathamala/domain';
import { call, signupByApi } from './support/api.ts';
import { codeFromOutbox, newMobile } from './support/carrier.ts';
import { useToken } from './support/session.ts';
import { BASE_URL } from './playwright.config.ts';

/*
 * Campaigns in the browser: a reader answers the demo survey in Sinhala on a phone, with the
 * code read from the carrier simulator's outbox; the demo editor sees it counted and downloads
 * the CSV.
 */

const SHOTS = process.env.CAMPAIGN_SHOTS ?? '';

test('a reader answers a questionnaire in Sinhala on a phone; an editor sees it counted and downloads the CSV', async ({
  browser,
  request,
}) => {
  const { campaigns } = await call<{ campaigns: CampaignSummary[] }>(
    request,
    '',
    'GET',
    campaignPaths.list(),
  );
  const survey = campaigns.find((c) => c.state === 'running' && c.questionerId !== null)!;
  const login = await request.post('/api/v1/user/login', {
    data: { email: 'editor@demo.kathamala.lk', password: 'kathamala-demo' },
  });
  const editorToken = ((await login.json()) as { object: { accesstoken: string } }).object
    .accesstoken;
  const before = await call<ManagedCampaign>(
    request,
    editorToken,
    'GET',
    campaignPaths.manageOne(survey.campaignId),
  );

  // The reader, on a 375 px phone, in Sinhala.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 } });
  await phone.addCookies([{ name: 'lang', value: 'si', url: BASE_URL }]);
  const page = await phone.newPage();
  await useToken(page, await signupByApi(request));
  await page.goto('/campaigns');
  await expect(page.locator('html')).toHaveAttribute('lang', 'si');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/list-375-si.png`, fullPage: true });
  await page.getByRole('link', { name: survey.title.si }).click();
  await expect(page.getByRole('heading', { name: survey.title.si })).toBeVisible();

  const mobile = newMobile();
  await page.getByLabel('ඔබේ ජංගම දුරකථන අංකය').fill(mobile.typed);
  await page.getByLabel('ඔබේ ජංගම සේවා සපයන්නා').selectOption('dialog');
  await page.getByRole('button', { name: 'කේතය යවන්න' }).click();
  await expect(
    page.getByText(`077 XXX X${mobile.normalized.slice(-3)}`, { exact: false }),
  ).toBeVisible();
  await page.getByLabel('SMS එකේ ඇති කේතය').fill(await codeFromOutbox(mobile.normalized));
  const genre = before.questions.find((q) => q.kind === 'single')!;
  const choice = genre.options![1]!;
  await page.getByRole('radio', { name: choice.label.si }).check();
  await page.getByRole('radio', { name: '5 න් 5' }).check();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/answer-375-si.png`, fullPage: true });
  await page.getByRole('button', { name: 'මගේ පිළිතුරු යවන්න' }).click();
  await expect(page.getByText('ස්තූතියි! ඔබේ පිළිතුරු ලැබුණා.', { exact: false })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/thanks-375-si.png`, fullPage: true });
  await phone.close();

  // The editor, on a desktop, in English.
  const desk = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  await desk.addCookies([{ name: 'lang', value: 'en', url: BASE_URL }]);
  const ed = await desk.newPage();
  await useToken(ed, editorToken);
  await ed.goto('/campaigns/manage');
  const card = ed
    .getByRole('listitem')
    .filter({ has: ed.getByRole('link', { name: survey.title.en }) });
  await card.getByRole('button', { name: 'Responses' }).click();
  const total = before.responseCount + 1;
  await expect(card.getByText(`${total} responses`)).toBeVisible();
  const bar = card.locator(`[data-choice="${choice.id}"] [data-count]`);
  await expect(bar).toHaveText(String((before.counts[genre.id]?.[choice.id] ?? 0) + 1));
  // Mobiles are masked on the page. Another journey's answer may end in the same three digits
  // (newMobile's end comes from the clock), so the masked form may show more than once.
  await expect(card.getByText(`077 XXX X${mobile.normalized.slice(-3)}`).first()).toBeVisible();
  await expect(card.getByText(mobile.normalized)).toHaveCount(0);
  if (SHOTS) await ed.screenshot({ path: `${SHOTS}/manage-1280-en.png`, fullPage: true });

  const [download] = await Promise.all([
    ed.waitForEvent('download'),
    card.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path());
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = csv.toString('utf8');
  expect(text).toContain(`+${mobile.normalized}`);
  expect(text.trim().split('\r\n')).toHaveLength(total + 1);
  await desk.close();

  // The same page on a phone, in Sinhala: the bars and the form fit.
  if (SHOTS) {
    const small = await browser.newContext({ viewport: { width: 375, height: 812 } });
    await small.addCookies([{ name: 'lang', value: 'si', url: BASE_URL }]);
    const p = await small.newPage();
    await useToken(p, editorToken);
    await p.goto('/campaigns/manage');
    await p.getByRole('button', { name: 'නව ව්‍යාපාරය' }).click();
    await p.getByRole('checkbox', { name: 'රචනා තරඟය' }).check();
    const c = p
      .getByRole('listitem')
      .filter({ has: p.getByRole('link', { name: survey.title.si }) });
    await c.getByRole('button', { name: 'පිළිතුරු' }).click();
    await expect(c.getByText(`පිළිතුරු ${total}`)).toBeVisible();
    await p.screenshot({ path: `${SHOTS}/manage-375-si.png`, fullPage: true });
    await small.close();
  }
});

test('the contest page shows its rules with the scoring formula and the live ranking per language track', async ({
  browser,
  request,
}) => {
  const { campaigns } = await call<{ campaigns: CampaignSummary[] }>(
    request,
    '',
    'GET',
    campaignPaths.list(),
  );
  const contest = campaigns.find((c) => c.state === 'running' && c.contest !== null)!;
  for (const [lang, width] of [
    ['si', 375],
    ['en', 1280],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: 'lang', value: lang, url: BASE_URL }]);
    const page = await context.newPage();
    await page.goto(`/campaigns/${contest.campaignId}`);
    await expect(page.getByRole('heading', { name: contest.title[lang] })).toBeVisible();
    await expect(
      page.getByText(lang === 'si' ? 'ලකුණු ගණනය වන ආකාරය' : 'How the score works', {
        exact: false,
      }),
    ).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(2);
    if (SHOTS)
      await page.screenshot({ path: `${SHOTS}/contest-${width}-${lang}.png`, fullPage: true });
    await context.close();
  }
});

test('an author enters a story in the running contest from /publish/story/; a story breaking a rule is refused with the rule named', async ({
  page,
  request,
}) => {
  const reader = await signupByApi(request);
  const id = Date.now().toString(36);
  const { accesstoken: token } = await call<{ accesstoken: string }>(
    request,
    reader,
    'POST',
    '/api/v1/author/register/',
    { name: `Contest writer ${id}` },
  );
  const { storyId } = await call<{ storyId: number }>(
    request,
    token,
    'POST',
    '/api/v1/author/publish/story/webapp',
    {
      story: {
        title: `තරඟ කතාව ${id}`,
        description: 'A story for the contest.',
        language: 'sinhala',
        kind: 0,
        category: 'mystery',
        membersOnly: false,
        ongoing: true,
      },
    },
  );
  await useToken(page, token);
  await page.goto(`/publish/story/?story=${storyId}`);
  const panel = page.getByRole('region', { name: 'Enter a story' });
  await panel.getByRole('button', { name: 'Enter a story' }).click();
  await expect(panel.getByRole('alert')).toContainText('Rule: minimum episodes');

  await call(request, token, 'POST', '/api/v1/author/publish/episode/webapp', {
    episode: { storyId, title: 'පළමු කොටස', content: '<p>Words.</p>', status: 'published' },
  });
  await panel.getByRole('button', { name: 'Enter a story' }).click();
  await expect(panel.getByRole('status')).toHaveText('Your story is entered.');
  await panel.getByRole('link', { name: 'Rules' }).click();
  await expect(page.getByRole('link', { name: `තරඟ කතාව ${id}` })).toBeVisible();
});
