import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignPaths as paths, type CampaignSummary, type Contestant } from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { DEMO_PASSWORD } from '../../db/seed/index.ts';
import { DEMO_EDITOR } from '../../db/seed/community.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 180_000);
afterAll(() => t.close());

it('seeds a running questionnaire and a running contest with entries in both languages, managed by the demo editor', async () => {
  const list = (await t.app.inject({ url: paths.list() })).json().object
    .campaigns as CampaignSummary[];
  const survey = list.find((c) => c.kinds.includes('questionnaire'))!;
  const contest = list.find((c) => c.kinds.includes('contest'))!;
  expect(survey).toMatchObject({ state: 'running' });
  expect(survey.title.si).toBeTruthy();
  expect(contest).toMatchObject({ state: 'running' });

  const stats = (await t.app.inject({ url: paths.stats(contest.campaignId) })).json().object;
  const tracks = new Set((stats.contestantList as Contestant[]).map((c) => c.track));
  expect([...tracks].sort()).toEqual(['english', 'sinhala']);

  const editor = await t.login(DEMO_EDITOR, DEMO_PASSWORD);
  const managed = await t.app.inject({
    url: paths.manageOne(survey.campaignId),
    headers: bearer(editor),
  });
  expect(managed.statusCode).toBe(200);
  expect(managed.json().object.responseCount).toBeGreaterThan(0);
});

it('server-renders the contest page with its share tags, rules and ranking; an unknown campaign is a 404 page', async () => {
  const list = (await t.app.inject({ url: paths.list() })).json().object
    .campaigns as CampaignSummary[];
  const contest = list.find((c) => c.kinds.includes('contest'))!;
  const stats = (await t.app.inject({ url: paths.stats(contest.campaignId) })).json().object;
  const res = await t.app.inject({
    url: `/campaigns/${contest.campaignId}`,
    headers: { accept: 'text/html', cookie: 'lang=si' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.body).toContain(`<meta property="og:title" content="${contest.title.si}`);
  expect(res.body).toContain('ලකුණු ගණනය වන ආකාරය');
  expect(res.body).toContain((stats.contestantList as Contestant[])[0]!.title);
  const missing = await t.app.inject({
    url: '/campaigns/999999',
    headers: { accept: 'text/html' },
  });
  expect(missing.statusCode).toBe(404);
});
