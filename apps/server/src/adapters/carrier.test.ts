import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import { ConfigError, loadConfig } from '../config.ts';
import { startCarrier } from './carrier.ts';

const SECRET = 'a-carrier-webhook-secret';

describe('carrier configuration', () => {
  it('defaults to the simulator, with no URL or secret needed', () => {
    const c = loadConfig({});
    expect(c.billingProvider).toBe('simulator');
    expect(c.smsProvider).toBe('simulator');
    expect(c.carrier).toEqual({
      url: null,
      appPassword: 'simulator',
      webhookSecret: null,
      simulatorDelayMs: 0,
    });
  });

  it('stops start-up naming the variable that is wrong', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ BILLING_PROVIDER: 'dialog' }, /BILLING_PROVIDER must be one of simulator, ideamart/],
      [{ SMS_PROVIDER: 'x' }, /SMS_PROVIDER/],
      [{ BILLING_PROVIDER: 'ideamart', CARRIER_WEBHOOK_SECRET: SECRET }, /CARRIER_URL is required/],
      [{ SMS_PROVIDER: 'ideamart', CARRIER_URL: 'https://api.example' }, /CARRIER_WEBHOOK_SECRET/],
      [{ CARRIER_URL: 'ftp://x' }, /CARRIER_URL must be an http\(s\) URL/],
      [{ CARRIER_WEBHOOK_SECRET: 'short' }, /CARRIER_WEBHOOK_SECRET must be at least 16/],
      [{ CARRIER_SIMULATOR_DELAY_MS: '-1' }, /CARRIER_SIMULATOR_DELAY_MS/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  it('takes an Ideamart-style carrier with its URL, password and secret', () => {
    const c = loadConfig({
      BILLING_PROVIDER: 'ideamart',
      SMS_PROVIDER: 'ideamart',
      CARRIER_URL: 'https://api.carrier.example/v1/',
      CARRIER_APP_PASSWORD: 'pw',
      CARRIER_WEBHOOK_SECRET: SECRET,
    });
    expect(c.carrier).toMatchObject({
      url: 'https://api.carrier.example/v1',
      appPassword: 'pw',
      webhookSecret: SECRET,
    });
  });
});

describe('startCarrier', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-carrier-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes the webhook secret once and keeps it in DATA_DIR/keys', async () => {
    const config = loadConfig({});
    const a = await startCarrier(config, { dataDir: dir });
    await a.close();
    const b = await startCarrier(config, { dataDir: dir });
    await b.close();
    expect(a.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(b.webhookSecret).toBe(a.webhookSecret);
    const file = path.join(dir, 'keys', 'carrier.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const memory = await startCarrier(config, { dataDir: null });
    expect(memory.webhookSecret).not.toBe(a.webhookSecret);
    expect(memory.simulator).not.toBeNull();
    await memory.close();
    const given = await startCarrier(loadConfig({ CARRIER_WEBHOOK_SECRET: SECRET }), {
      dataDir: dir,
    });
    expect(given.webhookSecret).toBe(SECRET);
    await given.close();
  });

  it('speaks to the configured carrier, and starts no simulator, with ideamart', async () => {
    const calls: { url?: string; body: Record<string, unknown> }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls.push({ url: req.url, body: JSON.parse(Buffer.concat(chunks).toString()) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 'S1000', subscriptionStatus: 'REGISTERED' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const carrier = await startCarrier(
      loadConfig({
        BILLING_PROVIDER: 'ideamart',
        SMS_PROVIDER: 'ideamart',
        CARRIER_URL: url,
        CARRIER_APP_PASSWORD: 'app-pw',
        CARRIER_WEBHOOK_SECRET: SECRET,
      }),
      { dataDir: null },
    );
    expect(carrier.simulator).toBeNull();
    expect(await carrier.billing.status({ mobile: '94771234567', appId: PRODUCT_APP_ID })).toBe(
      'active',
    );
    await carrier.sms.send({
      to: ['94771234567', '94711234567'],
      text: 'hi',
      appId: PRODUCT_APP_ID,
      ref: 'r1',
    });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/subscription/getStatus',
      '/api/sms/send',
      '/api/sms/send',
    ]);
    expect(calls[0]!.body).toEqual({
      applicationId: PRODUCT_APP_ID,
      subscriberId: 'tel:94771234567',
      password: 'app-pw',
    });
    // One call per short code: Mobitel numbers get theirs from 77011.
    expect(calls.slice(1).map((c) => [c.body.sourceAddress, c.body.destinationAddresses])).toEqual([
      ['77100', ['tel:94771234567']],
      ['77011', ['tel:94711234567']],
    ]);
    expect(calls[1]!.body).toMatchObject({ requestRef: 'r1', message: 'hi' });
    await carrier.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
