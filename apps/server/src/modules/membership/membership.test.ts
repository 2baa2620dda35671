import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  MEMBERSHIP,
  MEMBERSHIP_MESSAGES,
  PRODUCT_APP_ID,
  apiPaths,
  type MembershipDetails,
} from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import type { CarrierSimulator } from '../../adapters/simulator/simulator.ts';
import type { CarrierNotification } from '../../adapters/billing/types.ts';
import { SIGNATURE_HEADER, signNotification, toWire } from '../../adapters/billing/wire.ts';
import { ideamartBilling } from '../../adapters/billing/ideamart.ts';
import { AppError } from '../../errors.ts';
import { membershipService } from './service.ts';
import { RECONCILE_JOB, nextReconcileAt } from './jobs.ts';

let t: TestApp;
let sim: CarrierSimulator;
/** A members-only story of an author on the product app, with its first part. */
let locked: { storyId: number };

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  // The simulator posts notifications to our webhook: the server must listen.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim = t.carrier.simulator!;
  const author = await t.newAuthor('Member writer');
  locked = { storyId: await t.createStory(author.token, { membersOnly: true }) };
  await t.publishEpisode(author.token, locked.storyId, 'For members');
}, 120_000);
afterAll(() => t.close());

let numbers = 0;
/** A Dialog number no other test uses. */
const freshMobile = () => `9477${String(1_000_000 + ++numbers).slice(-7)}`;
/** The same number as a reader types it. */
const typed = (mobile: string) => `0${mobile.slice(2, 4)} ${mobile.slice(4, 7)} ${mobile.slice(7)}`;

const post = (url: string, token: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
const subscribe = (token: string, mobile: string, appId = PRODUCT_APP_ID) =>
  post(apiPaths.memberSubscribe(), token, { mobile: typed(mobile), appId });
const verify = (token: string, refId: string, mfaCode: string, appId = PRODUCT_APP_ID) =>
  post(apiPaths.memberVerify(), token, { mfaCode, appId, refId });
const details = async (token: string) =>
  (
    await t.app.inject({ method: 'GET', url: apiPaths.memberDetails(), headers: bearer(token) })
  ).json().object as MembershipDetails;
const readPart = (token: string, storyId = locked.storyId) =>
  t.app.inject({ method: 'GET', url: apiPaths.part(storyId, 1), headers: bearer(token) });
const smsTo = (mobile: string) => sim.outbox().filter((m) => m.to === mobile).length;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Asks for a code and answers its refId and the code the phone received. */
const askCode = async (token: string, mobile: string, appId = PRODUCT_APP_ID) => {
  const res = await subscribe(token, mobile, appId);
  expect(res.statusCode, res.body).toBe(200);
  return { refId: res.json().object.refId as string, code: sim.lastCode(mobile)! };
};

/** Joins the app through the real flow: code by SMS, typed back. */
const join = async (token: string, mobile: string, appId = PRODUCT_APP_ID) => {
  const { refId, code } = await askCode(token, mobile, appId);
  const res = await verify(token, refId, code, appId);
  expect(res.statusCode, res.body).toBe(200);
  await sim.idle();
};

const subscription = async (mobile: string, appId = PRODUCT_APP_ID) =>
  (
    await t.rows<{
      userId: number | null;
      status: string;
      startedAt: string;
      endedAt: string | null;
      lastChargedAt: string | null;
    }>(sql`select user_id as "userId", status, started_at::text as "startedAt",
      ended_at::text as "endedAt", last_charged_at::text as "lastChargedAt"
      from subscriptions where app_id = ${appId} and mobile = ${mobile}`)
  )[0];

const codeRow = async (refId: string) =>
  (
    await t.rows<{ attempts: number; consumed: boolean }>(
      sql`select attempts, consumed_at is not null as consumed from membership_codes where ref_id = ${refId}`,
    )
  )[0]!;

/** Posts a notification to our webhook as the carrier would, signed with the shared secret. */
const notify = (n: CarrierNotification) => {
  const body = JSON.stringify(toWire(n));
  return t.app.inject({
    method: 'POST',
    url: apiPaths.carrierWebhook(),
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signNotification(
        t.carrier.webhookSecret,
        body,
        Math.floor(Date.now() / 1000),
      ),
    },
    payload: body,
  });
};

/** A service on the same database whose carrier is down (the real adapter, nothing listening). */
const withCarrierDown = () =>
  membershipService({
    db: t.database.db,
    billing: ideamartBilling({ baseUrl: 'http://127.0.0.1:9', password: 'simulator' }),
  });
const statusOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return 200;
  } catch (err) {
    return err instanceof AppError ? err.status : 500;
  }
};
const viewerOf = (token: string) => ({
  userId: userOf(token),
  sessionId: '',
  name: 'x',
  author: false,
});

describe('asking for a code', () => {
  it('needs a login, a Sri Lankan mobile number and a billing app; sends nothing otherwise', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    expect(
      (await post(apiPaths.memberSubscribe(), null, { mobile, appId: PRODUCT_APP_ID })).statusCode,
    ).toBe(401);
    for (const bad of ['12345', '011 234 5678', '+1 555 123 4567', 'seven seven']) {
      const res = await post(apiPaths.memberSubscribe(), token, {
        mobile: bad,
        appId: PRODUCT_APP_ID,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'Please enter a Sri Lankan mobile number, like 077 123 4567.',
      );
    }
    const unknown = await subscribe(token, mobile, 'APP_NOBODY');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBeGreaterThan(0);
    expect(smsTo(mobile)).toBe(0);
    expect(await t.rows(sql`select 1 from membership_codes where mobile = ${mobile}`)).toHaveLength(
      0,
    );
  });

  it('sends a 6-digit code by SMS and answers a refId and the masked number', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    const res = await post(apiPaths.memberSubscribe(), token, {
      mobile: `+94 ${mobile.slice(2, 4)} ${mobile.slice(4)}`,
      appId: PRODUCT_APP_ID,
    });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().object;
    expect(o.refId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(o.mobile).toBe(`0${mobile.slice(2, 4)} XXX X${mobile.slice(-3)}`);
    expect(o.expiresInMinutes).toBe(MEMBERSHIP.codeTtlMinutes);
    expect(smsTo(mobile)).toBe(1);
    expect(sim.lastCode(mobile)).toMatch(/^\d{6}$/);
    // The code lives at the carrier only; we keep its reference and who asked.
    const [row] = await t.rows<{ userId: number; carrierRef: string; codeHash: string | null }>(
      sql`select user_id as "userId", carrier_ref as "carrierRef", code_hash as "codeHash"
        from membership_codes where ref_id = ${o.refId}`,
    );
    expect(row).toMatchObject({ userId: userOf(token), codeHash: null });
    expect(row!.carrierRef).not.toBe('');
  });

  it(`sends at most ${MEMBERSHIP.codesPerMobile} codes to a number in ${MEMBERSHIP.codesPerMobileWindowMinutes} minutes, whoever asks`, async () => {
    const mobile = freshMobile();
    const first = await t.signup();
    for (let i = 0; i < MEMBERSHIP.codesPerMobile; i++)
      expect((await subscribe(first, mobile)).statusCode).toBe(200);
    const again = await subscribe(first, mobile);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(
      /^We have sent 3 codes to this number in the last 15 minutes\. Please try again in (1[0-5]|[1-9]) minutes?\.$/,
    );
    // Another account cannot reach the number either.
    expect((await subscribe(await t.signup(), mobile)).statusCode).toBe(429);
    expect(smsTo(mobile)).toBe(MEMBERSHIP.codesPerMobile);
  });

  it('counts the limit exactly when requests arrive together', async () => {
    const mobile = freshMobile();
    const tokens = await Promise.all([1, 2, 3].map(() => t.signup()));
    const answers = await Promise.all(
      [...tokens, ...tokens].map((token) => subscribe(token, mobile)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 429, 429, 429]);
    expect(smsTo(mobile)).toBe(MEMBERSHIP.codesPerMobile);
  });

  it(`sends at most ${MEMBERSHIP.codesPerAccount} codes an hour per account, to any numbers`, async () => {
    const token = await t.signup();
    for (let i = 0; i < MEMBERSHIP.codesPerAccount; i++)
      expect((await subscribe(token, freshMobile())).statusCode).toBe(200);
    const mobile = freshMobile();
    const res = await subscribe(token, mobile);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(
      /^You have asked for 5 codes in the last 60 minutes\. Please try again in \d+ minutes?\.$/,
    );
    expect(smsTo(mobile)).toBe(0);
  });

  it('answers 503 and keeps nothing when the carrier is down', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    const down = withCarrierDown();
    let message = '';
    try {
      await down.subscribe(viewerOf(token), { mobile, appId: PRODUCT_APP_ID });
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(503);
      message = (err as AppError).message;
    }
    expect(message).toBe(MEMBERSHIP_MESSAGES.subscribeFailed);
    // A failed request does not count against the limits.
    expect(await t.rows(sql`select 1 from membership_codes where mobile = ${mobile}`)).toHaveLength(
      0,
    );
  });
});

describe('verifying a code', () => {
  it('activates the membership and links the number to the account', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    expect((await readPart(token)).statusCode).toBe(403);
    const { refId, code } = await askCode(token, mobile);
    const res = await verify(token, refId, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ code: 0, object: { subscribed: true, appId: PRODUCT_APP_ID } });
    expect(await subscription(mobile)).toMatchObject({ userId: userOf(token), status: 'active' });
    expect(sim.subscriber(PRODUCT_APP_ID, mobile)?.status).toBe('active');
    const part = await readPart(token);
    expect(part.statusCode).toBe(200);
    expect(part.json().object.part.content).toContain('Words');
    expect(part.json().object.subscribed).toBe(true);
    // Already a member: no second code.
    expect((await subscribe(token, freshMobile())).statusCode).toBe(409);
  });

  it('asks for the code when it is empty, and for 6 digits', async () => {
    const token = await t.signup();
    const { refId } = await askCode(token, freshMobile());
    for (const empty of ['', '   ']) {
      const res = await verify(token, refId, empty);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MEMBERSHIP_MESSAGES.codeRequired);
    }
    for (const bad of ['12345', '1234567', 'abcdef', '12 34 5']) {
      const res = await verify(token, refId, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'The subscription code is the 6 digits in the SMS we sent you.',
      );
    }
    // None of these reached the carrier or used a try.
    expect((await codeRow(refId)).attempts).toBe(0);
  });

  it("answers someone else's refId exactly as an unknown one, and uses none of its tries", async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const mobile = freshMobile();
    const { refId, code } = await askCode(owner, mobile);
    const theirs = await verify(other, refId, code);
    const unknown = await verify(other, 'no-such-reference-id-000', code);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
    expect((await codeRow(refId)).attempts).toBe(0);
    expect(await subscription(mobile)).toBeUndefined();
    // The owner can still use it.
    expect((await verify(owner, refId, code)).statusCode).toBe(200);
  });

  it('refuses a code for another app', async () => {
    const token = await t.signup();
    const { refId, code } = await askCode(token, freshMobile());
    const res = await verify(token, refId, code, 'APP_SOMETHING_ELSE');
    expect(res.statusCode).toBe(400);
    expect((await codeRow(refId)).attempts).toBe(0);
  });

  it('uses a code once', async () => {
    const token = await t.signup();
    const { refId, code } = await askCode(token, freshMobile());
    expect((await verify(token, refId, code)).statusCode).toBe(200);
    const again = await verify(token, refId, code);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already been used/);
  });

  it(`lets a code expire after ${MEMBERSHIP.codeTtlMinutes} minutes`, async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    const { refId, code } = await askCode(token, mobile);
    await t.rows(
      sql`update membership_codes set expires_at = now() - interval '1 second' where ref_id = ${refId}`,
    );
    const res = await verify(token, refId, code);
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toBe(
      'That subscription code has expired. Please ask for a new one.',
    );
    expect(await subscription(mobile)).toBeUndefined();
  });

  it('kills a code after 3 wrong tries, the right one included', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    const { refId, code } = await askCode(token, mobile);
    const wrong = wrongCode(code);
    const messages = [];
    for (let i = 0; i < MEMBERSHIP.codeMaxTries; i++) {
      const res = await verify(token, refId, wrong);
      expect(res.statusCode).toBe(400);
      messages.push(res.json().message);
    }
    expect(messages).toEqual([
      'That code is not right. 2 tries left.',
      'That code is not right. 1 try left.',
      'That code is not right, and it cannot be tried again. Please ask for a new one.',
    ]);
    const right = await verify(token, refId, code);
    expect(right.statusCode).toBe(410);
    expect(await subscription(mobile)).toBeUndefined();
  });

  it('never allows more than 3 tries, even in parallel', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    const { refId, code } = await askCode(token, mobile);
    const wrong = wrongCode(code);
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(token, refId, wrong)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([400, 400, 400, 410, 410, 410, 410, 410]);
    expect((await codeRow(refId)).attempts).toBe(3);
    expect((await verify(token, refId, code)).statusCode).toBe(410);
  });

  it('gives the try back when the carrier cannot be reached', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    const { refId, code } = await askCode(token, mobile);
    const status = await statusOf(
      withCarrierDown().verify(viewerOf(token), { mfaCode: code, appId: PRODUCT_APP_ID, refId }),
    );
    expect(status).toBe(503);
    expect(await codeRow(refId)).toEqual({ attempts: 0, consumed: false });
    expect(await subscription(mobile)).toBeUndefined();
    expect((await verify(token, refId, code)).statusCode).toBe(200);
  });
});

describe('the account and leaving', () => {
  it('lists memberships with the masked number, since, status, next charge and fee', async () => {
    const token = await t.signup();
    expect(await details(token)).toEqual({ memberships: [] });
    const mobile = freshMobile();
    await join(token, mobile);
    const [m, ...rest] = (await details(token)).memberships;
    expect(rest).toHaveLength(0);
    expect(m).toMatchObject({
      appId: PRODUCT_APP_ID,
      name: 'Kathamala',
      keyword: 'REG KATHAMALA',
      mobile: `0${mobile.slice(2, 4)} XXX X${mobile.slice(-3)}`,
      status: 'active',
      fee: { amount: 50, currency: 'LKR', period: 'month' },
    });
    expect(Date.parse(m!.since)).toBeLessThanOrEqual(Date.now());
    // The carrier's next charge: about a month from now.
    const days = (Date.parse(m!.nextCharge!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(MEMBERSHIP.chargePeriodDays - 1);
    expect(days).toBeLessThanOrEqual(MEMBERSHIP.chargePeriodDays);
  });

  it('leaves: UNREG at the carrier, the membership ends, access ends', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    expect(
      (await post(apiPaths.memberUnsubscribe(), token, { appId: PRODUCT_APP_ID })).statusCode,
    ).toBe(404);
    await join(token, mobile);
    expect((await readPart(token)).statusCode).toBe(200);
    const res = await post(apiPaths.memberUnsubscribe(), token, { appId: PRODUCT_APP_ID });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object).toEqual({ subscribed: false, appId: PRODUCT_APP_ID });
    expect(sim.subscriber(PRODUCT_APP_ID, mobile)?.status).toBe('ended');
    expect((await subscription(mobile))?.status).toBe('ended');
    const part = await readPart(token);
    expect(part.statusCode).toBe(403);
    expect(part.body).not.toContain('Words');
    const [m] = (await details(token)).memberships;
    expect(m).toMatchObject({ status: 'ended', nextCharge: null });
    // The carrier's UNREG notification arrives after us and changes nothing.
    await sim.idle();
    expect((await subscription(mobile))?.status).toBe('ended');
    expect(
      (await post(apiPaths.memberUnsubscribe(), token, { appId: PRODUCT_APP_ID })).statusCode,
    ).toBe(404);
    // Joining again starts a new membership.
    await join(token, mobile);
    expect((await readPart(token)).statusCode).toBe(200);
  });

  it('keeps the membership when the carrier cannot be told', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    await join(token, mobile);
    const status = await statusOf(withCarrierDown().unsubscribe(viewerOf(token), PRODUCT_APP_ID));
    expect(status).toBe(503);
    expect((await subscription(mobile))?.status).toBe('active');
    expect(sim.subscriber(PRODUCT_APP_ID, mobile)?.status).toBe('active');
    expect((await readPart(token)).statusCode).toBe(200);
  });
});

describe('carrier notifications through the signed webhook', () => {
  it('joins by SMS, then links the number to an account with a code', async () => {
    const mobile = freshMobile();
    expect(sim.phoneSends(mobile, 'REG KATHAMALA', '77100')).toMatch(/joined/);
    await sim.idle();
    const before = await subscription(mobile);
    expect(before).toMatchObject({ userId: null, status: 'active' });
    const token = await t.signup();
    expect((await readPart(token)).statusCode).toBe(403);
    await join(token, mobile);
    const after = await subscription(mobile);
    // The same membership, now the account's: it started when the phone joined.
    expect(after).toMatchObject({ userId: userOf(token), status: 'active' });
    expect(after!.startedAt).toBe(before!.startedAt);
    expect((await readPart(token)).statusCode).toBe(200);
    expect((await details(token)).memberships).toHaveLength(1);
  });

  it('applies a notification repeated 10 times once', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    await join(token, mobile);
    const at = new Date(Date.now() + 1000);
    const charge: CarrierNotification = {
      id: `replay-${mobile}`,
      type: 'CHARGE_OK',
      appId: PRODUCT_APP_ID,
      mobile,
      at,
      amount: 50,
      nextChargeAt: new Date(at.getTime() + 30 * 86_400_000),
    };
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push((await notify(charge)).json().object.applied);
    expect(answers).toEqual([true, ...Array(9).fill(false)]);
    expect(
      await t.rows(sql`select 1 from carrier_notifications where id = ${charge.id}`),
    ).toHaveLength(1);
    const first = await subscription(mobile);
    expect(first?.lastChargedAt).not.toBeNull();
    // A later charge failure, then the old success replayed again: still lapsed.
    await notify({
      id: `fail-${mobile}`,
      type: 'CHARGE_FAIL',
      appId: PRODUCT_APP_ID,
      mobile,
      at: new Date(at.getTime() + 1000),
      reason: 'No balance',
    });
    for (let i = 0; i < 10; i++) await notify(charge);
    expect((await subscription(mobile))?.status).toBe('lapsed');
    expect((await readPart(token)).statusCode).toBe(403);
  });

  it('ends in the right state when UNREG arrives before its REG', async () => {
    const mobile = freshMobile();
    const reg = new Date(Date.now() - 2000);
    const unreg = new Date(reg.getTime() + 1000);
    const base = { appId: PRODUCT_APP_ID, mobile };
    expect(
      (await notify({ ...base, id: `u-${mobile}`, type: 'UNREG', at: unreg })).statusCode,
    ).toBe(200);
    expect((await subscription(mobile))?.status).toBe('ended');
    expect(
      (await notify({ ...base, id: `r-${mobile}`, type: 'REG', at: reg })).json().object.applied,
    ).toBe(true);
    expect((await subscription(mobile))?.status).toBe('ended');
    // And in order, the other way round, it ends active.
    const other = freshMobile();
    await notify({
      appId: PRODUCT_APP_ID,
      mobile: other,
      id: `u-${other}`,
      type: 'UNREG',
      at: reg,
    });
    await notify({
      appId: PRODUCT_APP_ID,
      mobile: other,
      id: `r-${other}`,
      type: 'REG',
      at: unreg,
    });
    expect((await subscription(other))?.status).toBe('active');
  });

  it('refuses a forged notification and changes nothing', async () => {
    const mobile = freshMobile();
    const body = JSON.stringify(
      toWire({ id: `f-${mobile}`, type: 'REG', appId: PRODUCT_APP_ID, mobile, at: new Date() }),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.carrierWebhook(),
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signNotification('not-the-secret', body, Math.floor(Date.now() / 1000)),
      },
      payload: body,
    });
    expect(res.statusCode).toBe(401);
    expect(await subscription(mobile)).toBeUndefined();
  });

  it('ignores notifications for an app we do not have', async () => {
    const mobile = freshMobile();
    const res = await notify({
      id: `x-${mobile}`,
      type: 'REG',
      appId: 'APP_UNKNOWN',
      mobile,
      at: new Date(),
    });
    expect(res.statusCode).toBe(200);
    expect(await t.rows(sql`select 1 from subscriptions where mobile = ${mobile}`)).toHaveLength(0);
  });

  it('ends access on the next request after a failed charge, and gives it back when paid', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    await join(token, mobile);
    expect((await readPart(token)).statusCode).toBe(200);
    expect(sim.charge(PRODUCT_APP_ID, mobile, false)).toMatch(/failed/);
    await sim.idle();
    const part = await readPart(token);
    expect(part.statusCode).toBe(403);
    expect(part.body).not.toContain('Words');
    expect((await details(token)).memberships[0]).toMatchObject({
      status: 'lapsed',
      nextCharge: null,
    });
    sim.charge(PRODUCT_APP_ID, mobile, true);
    await sim.idle();
    expect((await readPart(token)).statusCode).toBe(200);
    // UNREG by the phone ends it on the next request too.
    sim.phoneSends(mobile, 'UNREG KATHAMALA');
    await sim.idle();
    expect((await readPart(token)).statusCode).toBe(403);
  });
});

describe('reconciliation with the carrier', () => {
  it('corrects drift and goes on past a carrier failure', async () => {
    const drifted = await t.signup();
    const driftedMobile = freshMobile();
    await join(drifted, driftedMobile);
    const lapsing = await t.signup();
    const lapsingMobile = freshMobile();
    await join(lapsing, lapsingMobile);
    const kept = await t.signup();
    const keptMobile = freshMobile();
    await join(kept, keptMobile);
    // The carrier ends one without telling us, and we missed a failed charge of another.
    sim.forget(PRODUCT_APP_ID, driftedMobile);
    await t.rows(sql`update subscriptions set status = 'lapsed' where mobile = ${keptMobile}`);
    // An app the carrier does not know: asking about it fails.
    await t.rows(
      sql`insert into billing_apps (app_id, name, keyword) values ('APP_GONE', 'Gone', 'REG GONE')`,
    );
    const goneMobile = freshMobile();
    await t.rows(
      sql`insert into subscriptions (app_id, mobile, status) values ('APP_GONE', ${goneMobile}, 'active')`,
    );
    void lapsing;

    const service = membershipService({ db: t.database.db, billing: t.carrier.billing });
    const counts = await service.reconcile();
    expect(counts.failed).toBe(1);
    expect(counts.corrected).toBeGreaterThanOrEqual(2);
    expect((await subscription(driftedMobile))?.status).toBe('ended');
    expect((await subscription(keptMobile))?.status).toBe('active');
    expect((await subscription(lapsingMobile))?.status).toBe('active');
    expect((await subscription(goneMobile, 'APP_GONE'))?.status).toBe('active');
    expect((await readPart(drifted)).statusCode).toBe(403);
    expect((await readPart(kept)).statusCode).toBe(200);
    // A second run finds nothing more to correct.
    expect((await service.reconcile()).corrected).toBe(0);
  });

  it('is a daily job sent at start-up for 02:00 in Sri Lanka', async () => {
    const jobs = await t.rows<{ startAfter: string }>(
      sql`select start_after as "startAfter" from pgboss.job where name = ${RECONCILE_JOB} and state = 'created'`,
    );
    expect(jobs).toHaveLength(1);
    const at = new Date(jobs[0]!.startAfter);
    expect(at.getTime()).toBe(nextReconcileAt(new Date()).getTime());
    // 02:00 at UTC+05:30 is 20:30 UTC.
    expect(nextReconcileAt(new Date('2026-11-22T10:00:00Z')).toISOString()).toBe(
      '2026-11-22T20:30:00.000Z',
    );
    expect(nextReconcileAt(new Date('2026-11-22T20:30:00Z')).toISOString()).toBe(
      '2026-11-23T20:30:00.000Z',
    );
    expect(nextReconcileAt(new Date('2026-11-22T21:00:00Z')).toISOString()).toBe(
      '2026-11-23T20:30:00.000Z',
    );
  });
  it('runs as the carrier.reconcile job, which sends the next run', async () => {
    const token = await t.signup();
    const mobile = freshMobile();
    await join(token, mobile);
    sim.forget(PRODUCT_APP_ID, mobile);
    // The run sent at start-up is dropped: the job must send the next one itself.
    await t.rows(sql`delete from pgboss.job where name = ${RECONCILE_JOB} and state = 'created'`);
    await t.queue.send(RECONCILE_JOB, {});
    const deadline = Date.now() + 20_000;
    while ((await subscription(mobile))?.status !== 'ended' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await subscription(mobile))?.status).toBe('ended');
    const next = await t.rows<{ startAfter: string }>(
      sql`select start_after as "startAfter" from pgboss.job
        where name = ${RECONCILE_JOB} and state = 'created'`,
    );
    expect(next.map((j) => new Date(j.startAfter).getTime())).toEqual([
      nextReconcileAt(new Date()).getTime(),
    ]);
  });
});
