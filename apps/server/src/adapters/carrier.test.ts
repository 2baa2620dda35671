import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import { ConfigError, loadConfig, simulatorWarning } from '../config.ts';
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

  it('outside production, CARRIER_SIMULATOR=0 refuses the simulator too', () => {
    expect(() => loadConfig({ CARRIER_SIMULATOR: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ CARRIER_SIMULATOR: 'maybe' })).toThrow(
      /CARRIER_SIMULATOR must be 1 or 0/,
    );
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

describe('the carrier in production', () => {
  const real = {
    BILLING_PROVIDER: 'ideamart',
    SMS_PROVIDER: 'ideamart',
    CARRIER_URL: 'https://api.carrier.example/v1',
    CARRIER_WEBHOOK_SECRET: SECRET,
  };

  it('refuses to start with no carrier configured, saying what to set', () => {
    const env = { NODE_ENV: 'production' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /^NODE_ENV is production but no carrier is configured: set SMS_PROVIDER=ideamart and BILLING_PROVIDER=ideamart with CARRIER_URL and CARRIER_WEBHOOK_SECRET, or set CARRIER_SIMULATOR=1 /,
    );
    // Naming the simulator is not enough: the demo setting is.
    for (const name of ['SMS_PROVIDER', 'BILLING_PROVIDER'])
      expect(() => loadConfig({ ...env, ...real, [name]: 'simulator' }), name).toThrow(
        `${name}=simulator needs CARRIER_SIMULATOR=1`,
      );
    expect(() => loadConfig({ ...env, CARRIER_SIMULATOR: '0' })).toThrow(
      /no carrier is configured/,
    );
  });

  it('plays the carrier with the simulator only with CARRIER_SIMULATOR=1, and says so loudly', async () => {
    const config = loadConfig({ NODE_ENV: 'production', CARRIER_SIMULATOR: '1' });
    expect([config.smsProvider, config.billingProvider]).toEqual(['simulator', 'simulator']);
    const warning = simulatorWarning(config);
    expect(warning).toMatch(/^DEMO CARRIER: .*carrier simulator.*No SMS reaches a phone/);
    expect(warning).toContain(`${config.publicUrl}/dev/sms/ answers only on this machine`);
    const carrier = await startCarrier(config, { dataDir: null });
    expect(carrier.simulator).not.toBeNull();
    expect(carrier.warning).toBe(warning);
    await carrier.close();
  });

  it('says nothing with a real carrier, or outside production', async () => {
    const config = loadConfig({ NODE_ENV: 'production', ...real });
    expect(simulatorWarning(config)).toBeNull();
    expect(simulatorWarning(loadConfig({}))).toBeNull();
    const carrier = await startCarrier(loadConfig({}), { dataDir: null });
    expect(carrier.warning).toBeNull();
    await carrier.close();
  });

  const repo = path.resolve(import.meta.dirname, '../../../..');
  const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');

  it('npm start sets the demo setting, and starts', () => {
    const serve = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
      .serve!;
    const env = Object.fromEntries(
      [...serve.matchAll(/\b([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
    );
    expect(env).toMatchObject({ NODE_ENV: 'production', CARRIER_SIMULATOR: '1' });
    expect(loadConfig(env).smsProvider).toBe('simulator');
  });

  it('compose.yaml and the image do not default to the simulator', () => {
    // The environment compose gives each instance when .env sets only the required secrets.
    const compose = read('compose.yaml');
    const block = compose.slice(compose.indexOf('x-app:'), compose.indexOf('\nservices:'));
    const env: Record<string, string> = {};
    for (const [, name, value] of block.matchAll(/^ {4}([A-Z_0-9]+): (.*)$/gm)) {
      const v = value!.replace(/^'(.*)'$/, '$1');
      env[name!] = v
        .replace(/\$\{[A-Z_0-9]+:-([^}]*)\}/g, '$1')
        .replace(/\$\{[A-Z_0-9]+:\?[^}]*\}/g, 'x'.repeat(32));
    }
    const image = read('Dockerfile');
    const envBlock = /^ENV ((?:.*\\\n)*.*)$/m.exec(image)![1]!;
    for (const [, name, value] of envBlock.matchAll(/([A-Z_]+)=(\S+)/g)) env[name!] = value!;
    expect(env.NODE_ENV).toBe('production');
    expect(() => loadConfig(env)).toThrow(/no carrier is configured/);
    expect(() => loadConfig({ ...env, ...real })).not.toThrow();
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
