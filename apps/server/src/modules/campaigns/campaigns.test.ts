import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { campaignPaths as paths, type Question } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import type { CarrierSimulator } from '../../adapters/simulator/simulator.ts';

let t: TestApp;
let sim: CarrierSimulator;
let editor: string;
let reader: string;
/** A reader of its own for each test: the per-account code limit counts across tests otherwise. */
const freshReader = () => t.signup('Participant');

const QUESTIONS: Question[] = [
  {
    id: 'genre',
    kind: 'single',
    required: true,
    label: { en: 'Favourite genre', si: 'ප්‍රියතම ප්‍රභේදය' },
    options: [
      { id: 'romance', label: { en: 'Romance', si: 'ප්‍රේම' } },
      { id: 'mystery', label: { en: 'Mystery', si: 'අභිරහස්' } },
    ],
  },
  {
    id: 'times',
    kind: 'multiple',
    required: false,
    label: { en: 'When do you read?', si: 'ඔබ කියවන්නේ කවදාද?' },
    options: [
      { id: 'morning', label: { en: 'Morning', si: 'උදේ' } },
      { id: 'night', label: { en: 'Night', si: 'රාත්‍රී' } },
    ],
  },
  { id: 'idea', kind: 'short', required: false, label: { en: 'One idea', si: 'අදහසක්' } },
  { id: 'story', kind: 'long', required: false, label: { en: 'Tell us', si: 'කියන්න' } },
  { id: 'stars', kind: 'rating', required: true, label: { en: 'Rate us', si: 'ශ්‍රේණිගත කරන්න' } },
];

const DAY = 24 * 3600 * 1000;
const campaignInput = (over: Record<string, unknown> = {}) => ({
  title: { en: 'Reading habits', si: 'කියවීමේ පුරුදු' },
  description: { en: 'Tell us how you read.', si: 'ඔබ කියවන හැටි කියන්න.' },
  startsAt: new Date(Date.now() - DAY).toISOString(),
  endsAt: new Date(Date.now() + 7 * DAY).toISOString(),
  questionnaire: { questions: QUESTIONS },
  ...over,
});

const call = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });

/** Creates a campaign as the editor; answers its id and questionnaire id. */
const create = async (over: Record<string, unknown> = {}) => {
  const res = await call('POST', paths.manage(), editor, { campaign: campaignInput(over) });
  expect(res.statusCode, res.body).toBe(200);
  const campaignId = res.json().object.campaignId as number;
  const detail = (await call('GET', paths.detail(campaignId), null)).json().object.campaign;
  return { campaignId, questionerId: detail.questionerId as number };
};

let numbers = 0;
const freshMobile = () => `9477${String(2_000_000 + ++numbers).slice(-7)}`;
const typed = (m: string) => `0${m.slice(2, 4)} ${m.slice(4, 7)} ${m.slice(7)}`;

const participate = (
  token: string,
  c: { campaignId: number; questionerId: number },
  mobile: string,
  carrier = 'dialog',
) =>
  call('POST', paths.participation(), token, {
    campaignId: c.campaignId,
    questionerId: c.questionerId,
    mobile: typed(mobile),
    carrier,
  });

/** Step 1 done right: answers participantId, refId and the code the phone received. */
const codeFor = async (
  token: string,
  c: { campaignId: number; questionerId: number },
  mobile: string,
) => {
  const res = await participate(token, c, mobile);
  expect(res.statusCode, res.body).toBe(200);
  const o = res.json().object as { participantId: number; refId: string };
  return { ...o, code: sim.lastCode(mobile)! };
};

const GOOD = { genre: 'mystery', times: ['night', 'morning'], idea: 'පොත්', stars: 4 };
const respond = (
  token: string,
  p: { participantId: number; refId: string },
  mfaCode: string,
  answers: object = GOOD,
) =>
  call('POST', paths.response(), token, {
    participantId: p.participantId,
    refId: p.refId,
    mfaCode,
    answers,
  });

const stored = async (campaignId: number) =>
  Number(
    (
      await t.rows<{ n: number }>(
        sql`select count(*)::int as n from campaign_responses where campaign_id = ${campaignId}`,
      )
    )[0]!.n,
  );

async function waitFor(check: () => boolean, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0', JOB_POLL_SECONDS: '1' });
  sim = t.carrier.simulator!;
  editor = await t.signup('Editor');
  await t.rows(sql`update users set role = 'editor' where id = ${userOf(editor)}`);
  reader = await t.signup('Reader');
}, 120_000);
afterAll(() => t.close());

describe('campaigns: editors manage, everyone lists', () => {
  it('lets editors create and edit campaigns, audited; readers get 403 and visitors 401', async () => {
    const refused = await call('POST', paths.manage(), reader, { campaign: campaignInput() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/editors/);
    expect(
      (await call('POST', paths.manage(), null, { campaign: campaignInput() })).statusCode,
    ).toBe(401);

    const c = await create();
    const listed = (await call('GET', paths.list(), null)).json().object.campaigns;
    const mine = listed.find((x: { campaignId: number }) => x.campaignId === c.campaignId);
    expect(mine).toMatchObject({
      state: 'running',
      kinds: ['questionnaire'],
      title: { si: 'කියවීමේ පුරුදු' },
    });

    // An edit that changes the questions makes a new version; the old one stays.
    const edited = await call('POST', paths.manage(), editor, {
      campaign: campaignInput({
        campaignId: c.campaignId,
        questionnaire: { questions: QUESTIONS.slice(0, 2) },
      }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const now = (await call('GET', paths.detail(c.campaignId), null)).json().object.campaign;
    expect(now.questionerId).not.toBe(c.questionerId);
    const old = await call('GET', paths.questioner(c.questionerId), reader);
    expect(old.json().object).toMatchObject({ version: 1, questions: QUESTIONS });
    const audit = await t.rows<{ action: string }>(
      sql`select action from community_audit where target_kind = 'campaign' and target_id = ${c.campaignId} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['campaign.create', 'campaign.update']);
  });

  it('refuses a campaign with neither questionnaire nor contest, or ending before it starts', async () => {
    const none = await call('POST', paths.manage(), editor, {
      campaign: campaignInput({ questionnaire: undefined }),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/questionnaire, a contest, or both/);
    const backwards = await call('POST', paths.manage(), editor, {
      campaign: campaignInput({ endsAt: new Date(Date.now() - 2 * DAY).toISOString() }),
    });
    expect(backwards.statusCode).toBe(400);
  });
});

describe('the campaign flow of SPEC.md 4', () => {
  it('registers, sends a code by SMS, answers the questionnaire, stores the response and thanks by SMS', async () => {
    const reader = await freshReader();
    const c = await create();
    const mobile = freshMobile();
    const p = await codeFor(reader, c, mobile);
    expect(p.code).toMatch(/^\d{6}$/);

    const q = await call('GET', paths.questioner(c.questionerId), reader);
    expect(q.statusCode).toBe(200);
    expect(q.json().object.questions.map((x: Question) => x.id)).toEqual(
      QUESTIONS.map((x) => x.id),
    );
    expect((await call('GET', paths.questioner(c.questionerId), null)).statusCode).toBe(401);

    const done = await respond(reader, p, p.code);
    expect(done.statusCode, done.body).toBe(200);
    expect(await stored(c.campaignId)).toBe(1);
    await waitFor(
      () => sim.outbox().some((m) => m.to === mobile && /Thank you/.test(m.text)),
      'the thank-you SMS',
    );

    // Editors see it counted, the mobile masked; the CSV has a BOM, Sinhala and the full number.
    const managed = (await call('GET', paths.manageOne(c.campaignId), editor)).json().object;
    expect(managed.responseCount).toBe(1);
    expect(managed.counts.genre).toEqual({ mystery: 1 });
    expect(managed.counts.stars).toEqual({ '4': 1 });
    expect(managed.responses[0].mobile).toMatch(/^077 XXX X\d{3}$/);
    expect((await call('GET', paths.manageOne(c.campaignId), reader)).statusCode).toBe(403);

    const csv = await call('GET', paths.csv(c.campaignId), editor);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = csv.rawPayload.toString('utf8');
    expect(text).toContain(`+${mobile}`);
    expect(text).toContain('Mystery');
    expect(text).toContain('Night; Morning');
    expect(text).toContain('පොත්');
    expect((await call('GET', paths.csv(c.campaignId), reader)).statusCode).toBe(403);
  });

  it('refuses an unknown carrier with 400 and sends nothing', async () => {
    const reader = await freshReader();
    const c = await create();
    const mobile = freshMobile();
    const res = await participate(reader, c, mobile, 'vodafone');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
    expect(sim.outbox().filter((m) => m.to === mobile)).toHaveLength(0);
  });

  it('refuses a wrong code and a reused code, storing nothing more', async () => {
    const reader = await freshReader();
    const c = await create();
    const p = await codeFor(reader, c, freshMobile());
    const wrong = String((Number(p.code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await respond(reader, p, wrong);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not right\. 2 tries left/);
    expect(await stored(c.campaignId)).toBe(0);

    expect((await respond(reader, p, p.code)).statusCode).toBe(200);
    const again = await respond(reader, p, p.code);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already been used/);
    expect(await stored(c.campaignId)).toBe(1);
  });

  it('takes one response per mobile per campaign: a second is refused with 409', async () => {
    const reader = await freshReader();
    const c = await create();
    const mobile = freshMobile();
    const first = await codeFor(reader, c, mobile);
    // A second code for the same number before the first is used, then both answered.
    const second = await codeFor(reader, c, mobile);
    expect((await respond(reader, first, first.code)).statusCode).toBe(200);
    const dup = await respond(reader, second, second.code);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/already answered this campaign/);
    // Asking again for that number is refused at once, even from another account.
    const other = await t.signup('Other');
    const again = await participate(other, c, mobile);
    expect(again.statusCode).toBe(409);
    expect(await stored(c.campaignId)).toBe(1);
  });

  it('refuses a closed or not yet open campaign with 409 naming its dates', async () => {
    const reader = await freshReader();
    const closed = await create({
      startsAt: '2026-01-01T00:00:00.000Z',
      endsAt: '2026-02-01T00:00:00.000Z',
    });
    const res = await participate(reader, closed, freshMobile());
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'This campaign is closed: it ran from 2026-01-01 00:00 UTC to 2026-02-01 00:00 UTC.',
    );
    const soon = await create({
      startsAt: new Date(Date.now() + DAY).toISOString(),
      endsAt: new Date(Date.now() + 2 * DAY).toISOString(),
    });
    const early = await participate(reader, soon, freshMobile());
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/not open yet: it runs from/);

    // A campaign that closes between the code and the response refuses the response too.
    const c = await create();
    const p = await codeFor(reader, c, freshMobile());
    await t.rows(
      sql`update campaigns set starts_at = now() - interval '2 days', ends_at = now() - interval '1 minute' where id = ${c.campaignId}`,
    );
    const late = await respond(reader, p, p.code);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/closed: it ran from/);
    expect(await stored(c.campaignId)).toBe(0);
  });

  it('refuses answers that break the questionnaire with 400 naming the question, the code still good', async () => {
    const reader = await freshReader();
    const c = await create();
    const p = await codeFor(reader, c, freshMobile());
    const cases: [object, RegExp][] = [
      [{ genre: 'mystery' }, /"Rate us": it is required/],
      [{ ...GOOD, genre: 'horror' }, /"Favourite genre" is not one of the choices/],
      [{ ...GOOD, times: ['noon'] }, /"When do you read\?" is not one of the choices/],
      [{ ...GOOD, idea: 'x'.repeat(201) }, /"One idea" is longer than its limit of 200/],
      [{ ...GOOD, stars: 6 }, /"Rate us" must be a rating from 1 to 5/],
    ];
    for (const [answers, message] of cases) {
      const res = await respond(reader, p, p.code, answers);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await stored(c.campaignId)).toBe(0);
    expect((await respond(reader, p, p.code)).statusCode).toBe(200);
  });
});

describe('campaign banners', () => {
  const upload = async (token: string | null, id: number, bytes: Buffer, type = 'image/png') => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), 'banner.png');
    const body = new Response(form);
    return t.app.inject({
      method: 'POST',
      url: paths.banner(id),
      payload: Buffer.from(await body.arrayBuffer()),
      headers: {
        'content-type': body.headers.get('content-type')!,
        ...(token ? bearer(token) : {}),
      },
    });
  };

  it('takes a banner from editors only, sniffed and re-encoded to WebP, and serves it', async () => {
    const c = await create();
    const png = await sharp({
      create: { width: 1600, height: 500, channels: 3, background: '#c0392b' },
    })
      .png()
      .toBuffer();
    expect((await upload(reader, c.campaignId, png)).statusCode).toBe(403);
    const fake = await upload(
      editor,
      c.campaignId,
      Buffer.from('not an image at all'),
      'image/png',
    );
    expect(fake.statusCode).toBeGreaterThanOrEqual(400);
    expect(fake.statusCode).toBeLessThan(500);
    const ok = await upload(editor, c.campaignId, png);
    expect(ok.statusCode, ok.body).toBe(200);
    const detail = (await call('GET', paths.detail(c.campaignId), null)).json().object.campaign;
    expect(detail.bannerUrl).toMatch(/^\/images\/campaigns\/banner_\d+_[0-9a-f]{16}\.webp$/);
    const file = await t.app.inject({ url: detail.bannerUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect((await sharp(file.rawPayload).metadata()).width).toBe(1200);
  });
});
