import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { campaignPaths as paths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { isBlockedAddress } from './safe-fetch.ts';

/** The server listens here: the report simulator is served under the site's own origin. */
const PORT = 3381;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DAY = 24 * 3600 * 1000;

let t: TestApp;
let editor: string;

const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });

const save = (reportUrl: string, campaignId?: number) =>
  call('POST', paths.manage(), editor, {
    campaign: {
      ...(campaignId ? { campaignId } : {}),
      title: { en: 'Ad campaign', si: 'දැන්වීම් ව්‍යාපාරය' },
      description: { en: '', si: '' },
      startsAt: new Date(Date.now() - DAY).toISOString(),
      endsAt: new Date(Date.now() + DAY).toISOString(),
      contest: { track: 'both', minEpisodes: 0, startWithin: false, rubricShare: 0 },
      reportUrl,
    },
  });

interface Fetch {
  status: 'accepted' | 'refused';
  reason: string | null;
  url: string;
}
/** Saves the report address and waits for the job's verdict on it. */
const verdict = async (
  reportUrl: string,
  campaignId?: number,
): Promise<Fetch & { campaignId: number }> => {
  const res = await save(reportUrl, campaignId);
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().object.campaignId as number;
  const until = Date.now() + 20_000;
  for (;;) {
    const reports = (await call('GET', paths.manageOne(id), editor)).json().object
      .reports as Fetch[];
    const mine = reports.find((r) => r.url === reportUrl);
    if (mine) return { ...mine, campaignId: id };
    if (Date.now() > until) throw new Error(`no verdict on ${reportUrl}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const metrics = async (id: number) =>
  (await call('GET', paths.stats(id), null)).json().object.adMetrics;

beforeAll(async () => {
  t = await createTestApp({
    DEMO_SEED: '0',
    JOB_POLL_SECONDS: '1',
    PUBLIC_URL: ORIGIN,
    AD_REPORT_HOSTS: 'localhost,10.1.2.3,ads.example.com',
  });
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  editor = await t.signup('Editor');
  await t.rows(sql`update users set role = 'editor' where id = ${userOf(editor)}`);
}, 120_000);
afterAll(() => t.close());

describe('the ad-metrics report (SPEC.md 5)', () => {
  it('accepts exactly one complete entry and shows its figures on the campaign’s statistics', async () => {
    const v = await verdict(`${ORIGIN}/dev/ad-metrics/complete.json`);
    expect(v.status).toBe('accepted');
    expect(await metrics(v.campaignId)).toMatchObject({
      impressions: 12500,
      clicks: 430,
      spend: 8750.5,
    });
  });

  it('refuses zero entries, two entries and one entry not complete, recording why; the accepted figures stay', async () => {
    const first = await verdict(`${ORIGIN}/dev/ad-metrics/complete.json`);
    const cases: [string, RegExp][] = [
      ['empty', /has 0 entries; exactly one is accepted/],
      ['two', /has 2 entries; exactly one is accepted/],
      ['pending', /status "pending"; only complete is accepted/],
    ];
    for (const [shape, reason] of cases) {
      const v = await verdict(`${ORIGIN}/dev/ad-metrics/${shape}.json`, first.campaignId);
      expect(v.status, shape).toBe('refused');
      expect(v.reason).toMatch(reason);
    }
    expect(await metrics(first.campaignId)).toMatchObject({ impressions: 12500 });
  });

  it('refuses a loopback or private address, a host off the list, plain http and a redirect off the list', async () => {
    // An allowed name that resolves to loopback: refused after DNS resolution, recorded.
    const loop = await verdict('https://localhost/report.json');
    expect(loop.status).toBe('refused');
    expect(loop.reason).toMatch(/resolves to a private or loopback address/);
    const redirected = await verdict(`${ORIGIN}/dev/ad-metrics/redirect`);
    expect(redirected.status).toBe('refused');
    expect(redirected.reason).toMatch(/A redirect was refused: The report address must use https/);

    const refusals: [string, RegExp][] = [
      ['https://10.1.2.3/report.json', /private or loopback address/],
      ['https://127.0.0.1/report.json', /not on the list of allowed report hosts/],
      ['https://evil.example.org/report.json', /not on the list of allowed report hosts/],
      ['http://ads.example.com/report.json', /must use https/],
    ];
    for (const [url, message] of refusals) {
      const res = await save(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it('knows private, loopback and link-local addresses, IPv4-mapped ones too', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.5',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '2606:4700::1111', '::ffff:1.1.1.1'])
      expect(isBlockedAddress(a), a).toBe(false);
  });
});
