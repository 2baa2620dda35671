import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import { ideamartBilling } from '../billing/ideamart.ts';
import { ideamartSms } from '../sms/ideamart.ts';
import { CarrierError } from '../billing/types.ts';
import { checkSignature, parseNotification, SIGNATURE_HEADER } from '../billing/wire.ts';
import { startSimulator, type CarrierSimulator } from './simulator.ts';

const AUTHOR_APP = 'APP_AUTHOR_1';
const APPS = [
  { appId: PRODUCT_APP_ID, name: 'Kathamala', keyword: 'REG KATHAMALA' },
  { appId: AUTHOR_APP, name: 'Author One', keyword: 'REG AUTHORONE' },
];
const DIALOG = '94771234567';
const MOBITEL = '94711234567';
const PASSWORD = 'sim-password';

/** A webhook receiver: records every signed body, answers 500 for the first `failFirst` calls. */
async function receiver(secret: string, failFirst = 0) {
  const got: { raw: string; check: string }[] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      if (calls <= failFirst) {
        res.writeHead(500).end('{}');
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = req.headers[SIGNATURE_HEADER] as string | undefined;
      got.push({ raw, check: checkSignature(secret, header, raw, Date.now() / 1000, 300) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":0}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    got,
    calls: () => calls,
    notifications: () => got.map((g) => parseNotification(JSON.parse(g.raw))!),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('the adapters against the simulator, over HTTP', () => {
  let clock = Date.UTC(2026, 10, 22, 6, 0, 0);
  let sim: CarrierSimulator;
  const endpoint = () => ({ baseUrl: sim.baseUrl, password: PASSWORD });
  const billing = () => ideamartBilling(endpoint());
  const sms = () => ideamartSms(endpoint());
  const codeFor = (mobile: string) => sim.lastCode(mobile)!;

  beforeAll(async () => {
    sim = await startSimulator({ dataDir: null, password: PASSWORD, now: () => clock });
    sim.learnApps(APPS);
  });
  afterAll(() => sim.close());

  it('OTP round trip: the code goes out by SMS, the right one registers the subscriber', async () => {
    const { referenceNo } = await billing().requestOtp({ mobile: DIALOG, appId: PRODUCT_APP_ID });
    expect(referenceNo).toMatch(/^[0-9a-f-]{36}$/);
    const sms = sim.outbox().at(-1)!;
    expect(sms).toMatchObject({ to: DIALOG, from: '77100' });
    expect(sms.text).toMatch(/Kathamala subscription code is \d{6}\b/);
    const code = codeFor(DIALOG);
    expect(code).toMatch(/^\d{6}$/);
    const result = await billing().verifyOtp({ appId: PRODUCT_APP_ID, referenceNo, otp: code });
    expect(result).toEqual({
      ok: true,
      mobile: DIALOG,
      nextChargeAt: new Date(clock + 30 * 86_400_000),
    });
    expect(await billing().status({ mobile: DIALOG, appId: PRODUCT_APP_ID })).toBe('active');
    expect(await billing().status({ mobile: DIALOG, appId: AUTHOR_APP })).toBe('ended');
  });

  it('a code is used once', async () => {
    const { referenceNo } = await billing().requestOtp({ mobile: MOBITEL, appId: AUTHOR_APP });
    expect(sim.outbox().at(-1)!.from).toBe('77011');
    const otp = codeFor(MOBITEL);
    expect((await billing().verifyOtp({ appId: AUTHOR_APP, referenceNo, otp })).ok).toBe(true);
    expect(await billing().verifyOtp({ appId: AUTHOR_APP, referenceNo, otp })).toEqual({
      ok: false,
      reason: 'used',
    });
  });

  it('three wrong tries kill a code: the right one fails after them', async () => {
    const mobile = '94761000001';
    const { referenceNo } = await billing().requestOtp({ mobile, appId: PRODUCT_APP_ID });
    const right = codeFor(mobile);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++)
      expect(await billing().verifyOtp({ appId: PRODUCT_APP_ID, referenceNo, otp: wrong })).toEqual(
        { ok: false, reason: 'wrong' },
      );
    expect(await billing().verifyOtp({ appId: PRODUCT_APP_ID, referenceNo, otp: right })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(sim.subscriber(PRODUCT_APP_ID, mobile)).toBeNull();
  });

  it('a code expires after 10 minutes (the carrier clock moved)', async () => {
    const mobile = '94761000002';
    const { referenceNo } = await billing().requestOtp({ mobile, appId: PRODUCT_APP_ID });
    const otp = codeFor(mobile);
    clock += 10 * 60_000 - 1;
    const early = await billing().requestOtp({ mobile, appId: PRODUCT_APP_ID });
    clock += 1;
    expect(await billing().verifyOtp({ appId: PRODUCT_APP_ID, referenceNo, otp })).toEqual({
      ok: false,
      reason: 'expired',
    });
    // The code asked for later is still good.
    expect(
      (
        await billing().verifyOtp({
          appId: PRODUCT_APP_ID,
          referenceNo: early.referenceNo,
          otp: codeFor(mobile),
        })
      ).ok,
    ).toBe(true);
  });

  it('an unknown reference, or another app’s, is unknown', async () => {
    const { referenceNo } = await billing().requestOtp({
      mobile: '94761000003',
      appId: PRODUCT_APP_ID,
    });
    const otp = codeFor('94761000003');
    expect(await billing().verifyOtp({ appId: AUTHOR_APP, referenceNo, otp })).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(await billing().verifyOtp({ appId: PRODUCT_APP_ID, referenceNo: 'nope', otp })).toEqual({
      ok: false,
      reason: 'unknown',
    });
  });

  it('unsubscribe ends it; a second unsubscribe is not an error', async () => {
    await billing().unsubscribe({ mobile: DIALOG, appId: PRODUCT_APP_ID });
    expect(await billing().status({ mobile: DIALOG, appId: PRODUCT_APP_ID })).toBe('ended');
    await billing().unsubscribe({ mobile: DIALOG, appId: PRODUCT_APP_ID });
  });

  it('charge failure lapses, a charge success restores; forget is silent drift', async () => {
    sim.provision([{ appId: AUTHOR_APP, mobile: '94761000009' }]);
    expect(await billing().status({ mobile: '94761000009', appId: AUTHOR_APP })).toBe('active');
    expect(sim.charge(AUTHOR_APP, '94761000009', false)).toMatch(/failed/);
    expect(await billing().status({ mobile: '94761000009', appId: AUTHOR_APP })).toBe('lapsed');
    expect(sim.charge(AUTHOR_APP, '94761000009', true)).toMatch(/Charged/);
    expect(await billing().status({ mobile: '94761000009', appId: AUTHOR_APP })).toBe('active');
    sim.forget(AUTHOR_APP, '94761000009');
    expect(await billing().status({ mobile: '94761000009', appId: AUTHOR_APP })).toBe('ended');
  });

  it('SMS: one line per number, a repeated ref is dropped, Sinhala (UCS-2) passes through', async () => {
    const before = sim.outbox().length;
    const text = 'කතාමාල: ශ්‍රී ලංකා කතාව 3 කොටස https://k.lk/d/1/3';
    const to = ['94770000101', '94710000102'];
    await sms().send({ to, text, appId: PRODUCT_APP_ID, ref: 'alert-1' });
    await sms().send({ to, text, appId: PRODUCT_APP_ID, ref: 'alert-1' });
    await sms().send({ to: ['94770000103'], text, appId: PRODUCT_APP_ID, ref: 'alert-1' });
    const sent = sim.outbox().slice(before);
    expect(sent.map((m) => [m.to, m.from, m.ref])).toEqual([
      ['94770000101', '77100', 'alert-1'],
      ['94710000102', '77011', 'alert-1'],
      ['94770000103', '77100', 'alert-1'],
    ]);
    expect(sent.every((m) => m.text === text)).toBe(true);
    expect(text.includes('\u200d')).toBe(true);
  });

  it('a refused call, a wrong password, a carrier that is down: CarrierError', async () => {
    const wrong = ideamartBilling({ baseUrl: sim.baseUrl, password: 'nope' });
    await expect(wrong.status({ mobile: DIALOG, appId: PRODUCT_APP_ID })).rejects.toThrow(
      CarrierError,
    );
    await expect(billing().status({ mobile: DIALOG, appId: 'APP_UNKNOWN' })).rejects.toThrow(
      /E1302/,
    );
    const down = ideamartSms({ baseUrl: 'http://127.0.0.1:9', password: PASSWORD });
    await expect(
      down.send({ to: [DIALOG], text: 'x', appId: PRODUCT_APP_ID, ref: 'r' }),
    ).rejects.toThrow(CarrierError);
  });

  it('a carrier slower than the timeout, or answering 5xx or not JSON: CarrierError', async () => {
    const answers: ((res: http.ServerResponse) => void)[] = [
      (res) => setTimeout(() => res.end('{"statusCode":"S1000"}'), 500),
      (res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{}'),
      (res) => res.end('<html>'),
      (res) => res.end('{"statusCode":"S1000"}'),
    ];
    let i = 0;
    const server = http.createServer((_req, res) => answers[i++]!(res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const slow = ideamartBilling({ baseUrl, password: PASSWORD, timeoutMs: 100 });
    const input = { mobile: DIALOG, appId: PRODUCT_APP_ID };
    await expect(slow.status(input)).rejects.toThrow(/could not be reached/);
    await expect(slow.status(input)).rejects.toThrow(/HTTP 503/);
    await expect(slow.status(input)).rejects.toThrow(/no JSON/);
    // Success but no subscription status: malformed.
    await expect(slow.status(input)).rejects.toThrow(/unknown subscription status/);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('phones and notifications', () => {
  const secret = 'a-test-secret-of-some-length';
  let sim: CarrierSimulator;
  afterEach(() => sim?.close());

  it('REG by SMS, an SMS from a phone, UNREG, charges: signed notifications in order', async () => {
    const hook = await receiver(secret);
    sim = await startSimulator({ dataDir: null, password: PASSWORD });
    sim.learnApps(APPS);
    sim.setWebhook(hook.url, secret);
    expect(sim.phoneSends(MOBITEL, 'REG AUTHORONE', '77100')).toMatch(/cannot text 77100/);
    expect(sim.phoneSends(MOBITEL, ' reg   authorone ')).toMatch(/joined APP_AUTHOR_1/);
    expect(sim.outbox().at(-1)).toMatchObject({ to: MOBITEL, from: '77011' });
    expect(sim.outbox().at(-1)!.text).toMatch(/Welcome to Author One.*UNREG AUTHORONE to 77011/);
    sim.phoneSends(MOBITEL, 'STOP');
    sim.charge(AUTHOR_APP, MOBITEL, true);
    sim.charge(AUTHOR_APP, MOBITEL, false);
    sim.phoneSends(MOBITEL, 'UNREG AUTHORONE');
    // Not subscribed to anything: an SMS goes to the product app.
    sim.phoneSends(DIALOG, 'hello');
    await sim.idle();
    expect(hook.got.every((g) => g.check === 'ok')).toBe(true);
    const ns = hook.notifications();
    expect(ns.map((n) => [n.type, n.appId, n.mobile])).toEqual([
      ['REG', AUTHOR_APP, MOBITEL],
      ['SMS', AUTHOR_APP, MOBITEL],
      ['CHARGE_OK', AUTHOR_APP, MOBITEL],
      ['CHARGE_FAIL', AUTHOR_APP, MOBITEL],
      ['UNREG', AUTHOR_APP, MOBITEL],
      ['SMS', PRODUCT_APP_ID, DIALOG],
    ]);
    expect(ns[1]).toMatchObject({ text: 'STOP' });
    // Carrier times strictly increase, even within one millisecond.
    const times = ns.map((n) => n.at.getTime());
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(new Set(times).size).toBe(times.length);
    expect(ns[2]).toMatchObject({ amount: 50 });
    expect(new Set(ns.map((n) => n.id)).size).toBe(6);
    expect(sim.undelivered()).toEqual([]);
    await hook.close();
  });

  it('holds notifications until the webhook is known, retries a failing one with backoff', async () => {
    sim = await startSimulator({ dataDir: null, password: PASSWORD, firstBackoffMs: 10 });
    sim.learnApps(APPS);
    sim.phoneSends(DIALOG, 'REG KATHAMALA');
    await expect(sim.idle()).rejects.toThrow(/no webhook/);
    const hook = await receiver(secret, 3);
    sim.setWebhook(hook.url, secret);
    await sim.idle();
    expect(hook.calls()).toBe(4);
    expect(hook.notifications().map((n) => n.type)).toEqual(['REG']);
    await hook.close();
  });

  it('gives up after the last try and says so', async () => {
    const warnings: string[] = [];
    sim = await startSimulator({
      dataDir: null,
      password: PASSWORD,
      firstBackoffMs: 1,
      maxDeliveryAttempts: 3,
      warn: (m) => warnings.push(m),
    });
    sim.learnApps(APPS);
    const hook = await receiver(secret, 100);
    sim.setWebhook(hook.url, secret);
    sim.phoneSends(DIALOG, 'REG KATHAMALA');
    await sim.idle();
    expect(hook.calls()).toBe(3);
    expect(sim.undelivered().map((n) => n.type)).toEqual(['REG']);
    expect(warnings[0]).toMatch(/gave up delivering REG/);
    await hook.close();
  });
});

describe('with a DATA_DIR', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-sim-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('appends each SMS as a JSON line, keeps subscribers and seen refs across a restart', async () => {
    let sim = await startSimulator({ dataDir: dir, password: PASSWORD });
    sim.learnApps(APPS);
    const send = (s: CarrierSimulator, ref: string) =>
      ideamartSms({ baseUrl: s.baseUrl, password: PASSWORD }).send({
        to: [DIALOG],
        text: 'Episode 4 is out',
        appId: PRODUCT_APP_ID,
        ref,
      });
    await send(sim, 'ep-4');
    sim.provision([{ appId: PRODUCT_APP_ID, mobile: DIALOG }]);
    await sim.close();

    const lines = fs.readFileSync(path.join(dir, 'sms-outbox.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, string>;
    expect(line).toMatchObject({ to: DIALOG, text: 'Episode 4 is out', ref: 'ep-4' });
    expect(new Date(line.at!).toISOString()).toBe(line.at);

    // A torn last line (a kill mid-write) is skipped, not fatal.
    fs.appendFileSync(path.join(dir, 'sms-outbox.jsonl'), '{"to":"9477');
    sim = await startSimulator({ dataDir: dir, password: PASSWORD });
    sim.learnApps(APPS);
    await send(sim, 'ep-4');
    await send(sim, 'ep-5');
    expect(sim.outbox().map((m) => m.ref)).toEqual(['ep-4', 'ep-5']);
    expect(sim.subscriber(PRODUCT_APP_ID, DIALOG)?.status).toBe('active');
    // Provisioning again changes nothing the carrier already knows.
    expect(sim.provision([{ appId: PRODUCT_APP_ID, mobile: DIALOG }])).toBe(0);
    await sim.close();
  });

  it('slows each SMS by CARRIER_SIMULATOR_DELAY_MS', async () => {
    const sim = await startSimulator({ dataDir: null, password: PASSWORD, delayMs: 50 });
    const started = Date.now();
    await ideamartSms({ baseUrl: sim.baseUrl, password: PASSWORD }).send({
      to: ['94770000001', '94770000002'],
      text: 'x',
      appId: PRODUCT_APP_ID,
      ref: 'slow',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    await sim.close();
  });
});
