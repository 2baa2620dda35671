import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, PRODUCT_APP_ID } from '@kathamala/domain';
import { openDatabase, type Database } from '../../db/client.ts';
import { ensureReferenceData } from '../../db/reference.ts';
import { installErrorHandling } from '../../errors.ts';
import { SIGNATURE_HEADER, signNotification, toWire } from '../../adapters/billing/wire.ts';
import type { CarrierNotification } from '../../adapters/billing/types.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { carrierDispatch } from './dispatch.ts';
import { carrierRoutes } from './routes.ts';

const SECRET = 'webhook-secret-for-tests-0123456789';
const url = apiPaths.carrierWebhook();

/** The webhook alone on a real database, with a counting handler on its dispatcher. */
describe('the carrier webhook', () => {
  let app: FastifyInstance;
  let database: Database;
  const clock = Date.now();
  const applied: string[] = [];
  let failNext = false;

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: null });
    await ensureReferenceData(database.db);
    const dispatch = carrierDispatch();
    dispatch.onSubscription(async (tx, n) => {
      // Writes inside the webhook's transaction: rolled back with it when a handler fails.
      await tx.execute(sql`select 1`);
      if (failNext) {
        failNext = false;
        throw new Error('handler failed');
      }
      applied.push(`${n.type} ${n.id}`);
    });
    dispatch.onSms(async (_tx, n) => void applied.push(`SMS ${n.text}`));
    app = Fastify();
    // A tight global budget: the webhook is exempt, so ten repeats still get through.
    await app.register(rateLimit, { max: 3, timeWindow: '1 minute' });
    installErrorHandling(app);
    await carrierRoutes(app, {
      db: database.db,
      dispatch,
      carrier: { webhookSecret: SECRET, listening: () => {} },
      now: () => clock,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const notification = (over: Partial<CarrierNotification> = {}): CarrierNotification =>
    ({
      id: `n-${Math.random().toString(36).slice(2)}`,
      type: 'REG',
      appId: PRODUCT_APP_ID,
      mobile: '94771234567',
      at: new Date(clock),
      ...over,
    }) as CarrierNotification;
  const post = (raw: string, signature?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { [SIGNATURE_HEADER]: signature }),
      },
      payload: raw,
    });
  const signed = (raw: string, at = clock) =>
    post(raw, signNotification(SECRET, raw, Math.floor(at / 1000)));
  const stored = async (id: string) =>
    (
      (await database.db.execute(
        sql`select type, app_id, mobile, payload from carrier_notifications where id = ${id}`,
      )) as unknown as { rows: Record<string, string>[] }
    ).rows;

  it('applies a signed notification once, however often it is repeated', async () => {
    const n = notification();
    const raw = JSON.stringify(toWire(n));
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await signed(raw));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.json().object.applied)).toEqual([true, ...Array(9).fill(false)]);
    expect(applied.filter((a) => a === `REG ${n.id}`)).toHaveLength(1);
    expect(await stored(n.id)).toEqual([
      { type: 'REG', app_id: PRODUCT_APP_ID, mobile: '94771234567', payload: raw },
    ]);
  });

  it('ten at once: still one row and one run of the handlers', async () => {
    const n = notification({ type: 'UNREG' });
    const raw = JSON.stringify(toWire(n));
    const answers = await Promise.all(Array.from({ length: 10 }, () => signed(raw)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.json().object.applied)).toHaveLength(1);
    expect(applied.filter((a) => a === `UNREG ${n.id}`)).toHaveLength(1);
    expect(await stored(n.id)).toHaveLength(1);
  });

  it('refuses forged, stale, missing and malformed signatures and changes nothing', async () => {
    const n = notification();
    const raw = JSON.stringify(toWire(n));
    const t = Math.floor(clock / 1000);
    const cases: [string | undefined, number, RegExp][] = [
      [undefined, 401, /not signed/],
      [signNotification('another-secret-entirely', raw, t), 401, /does not match/],
      // Signed for another body: the bytes are what is signed.
      [signNotification(SECRET, raw.replace('REG', 'UNREG'), t), 401, /does not match/],
      [signNotification(SECRET, raw, t - 301), 401, /too long ago/],
      [signNotification(SECRET, raw, t + 301), 401, /too long ago/],
      ['t=abc,v1=zz', 400, /expected format/],
      [`v1=${'0'.repeat(64)}`, 400, /expected format/],
    ];
    for (const [signature, status, message] of cases) {
      const res = await post(raw, signature);
      expect(res.statusCode, String(signature)).toBe(status);
      expect(res.json().code).toBeGreaterThan(0);
      expect(res.json().message).toMatch(message);
    }
    expect(await stored(n.id)).toEqual([]);
    expect(applied.some((a) => a.endsWith(n.id))).toBe(false);
    // Within the tolerance is fine.
    expect((await post(raw, signNotification(SECRET, raw, t - 299))).statusCode).toBe(200);
  });

  it('refuses a malformed notification with 400 even when signed', async () => {
    const bodies = [
      'not json',
      '[]',
      JSON.stringify({ ...toWire(notification()), subscriberId: '0771234567' }),
      JSON.stringify({ ...toWire(notification()), type: 'PAY' }),
      JSON.stringify({ ...toWire(notification()), timeStamp: 'yesterday' }),
      JSON.stringify({ ...toWire(notification()), notificationId: '' }),
      JSON.stringify({ ...toWire(notification()), type: 'CHARGE_OK', amount: 50 }),
    ];
    for (const raw of bodies) {
      const res = await signed(raw);
      expect(res.statusCode, raw).toBe(400);
      expect(res.json().message).toMatch(/JSON|field/);
    }
    const count = (await database.db.execute(
      sql`select count(*)::int as n from carrier_notifications`,
    )) as unknown as { rows: { n: number }[] };
    expect(count.rows[0]!.n).toBe(2 + 1);
  });

  it('a body over the limit is 413', async () => {
    const raw = JSON.stringify({ ...toWire(notification()), pad: 'x'.repeat(20_000) });
    expect((await signed(raw)).statusCode).toBe(413);
  });

  it('a handler that fails records nothing, so the carrier’s retry applies it', async () => {
    const n = notification({ type: 'CHARGE_FAIL', reason: 'Insufficient balance' } as never);
    const raw = JSON.stringify(toWire(n));
    failNext = true;
    expect((await signed(raw)).statusCode).toBe(500);
    expect(await stored(n.id)).toEqual([]);
    const retry = await signed(raw);
    expect(retry.json().object.applied).toBe(true);
    expect(applied).toContain(`CHARGE_FAIL ${n.id}`);
  });

  it('an SMS from a phone goes to the SMS handlers', async () => {
    const raw = JSON.stringify(toWire(notification({ type: 'SMS', text: 'STOP' } as never)));
    expect((await signed(raw)).json().object.applied).toBe(true);
    expect(applied).toContain('SMS STOP');
  });
});

/** The whole server: the simulator posts to the webhook once the server listens. */
describe('the simulator and the webhook in one server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('a phone joining by SMS arrives as one REG notification', async () => {
    const seen: string[] = [];
    t.dispatch.onSubscription(async (_tx, n) => void seen.push(`${n.type} ${n.mobile}`));
    const sim = t.carrier.simulator!;
    expect(sim.phoneSends('94771112233', 'reg kathamala', '77100')).toMatch(/joined/);
    await sim.idle();
    expect(seen).toEqual(['REG 94771112233']);
    const rows = await t.rows<{ type: string }>(
      sql`select type from carrier_notifications where mobile = '94771112233'`,
    );
    expect(rows).toEqual([{ type: 'REG' }]);
    expect(sim.subscriber(PRODUCT_APP_ID, '94771112233')?.status).toBe('active');
    expect(sim.outbox().at(-1)?.text).toMatch(/Welcome/);
    expect(sim.undelivered()).toEqual([]);
  });

  it('the seeded members are known to the simulated carrier', async () => {
    const active = await t.rows<{ app_id: string; mobile: string }>(
      sql`select app_id, mobile from subscriptions where status = 'active' and mobile <> '94771112233'`,
    );
    expect(active.length).toBeGreaterThan(0);
    for (const s of active)
      expect(
        await t.carrier.billing.status({ appId: s.app_id, mobile: s.mobile }),
        `${s.app_id} ${s.mobile}`,
      ).toBe('active');
  });
});
