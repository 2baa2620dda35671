import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { installErrorHandling } from '../../errors.ts';
import { installSecurityHeaders, securityHeaders } from '../../plugins/security-headers.ts';
import { startSimulator, type CarrierSimulator } from '../../adapters/simulator/simulator.ts';
import { carrierDispatch } from './dispatch.ts';
import { carrierRoutes } from './routes.ts';

const HOST = 'kathamala.test';
const APPS = [
  { appId: PRODUCT_APP_ID, name: 'Kathamala', keyword: 'REG KATHAMALA' },
  { appId: 'APP_AUTHOR_1', name: 'Author <One>', keyword: 'REG AUTHORONE' },
];

async function server(simulator: CarrierSimulator | null) {
  const app = Fastify();
  installSecurityHeaders(app, securityHeaders(loadConfig({ PUBLIC_URL: `http://${HOST}` })));
  installErrorHandling(app);
  await carrierRoutes(app, {
    // The webhook is not called here.
    db: {} as Db,
    dispatch: carrierDispatch(),
    carrier: { webhookSecret: 'x'.repeat(32), listening: () => {}, simulator },
  });
  await app.ready();
  return app;
}

describe('the development SMS page', () => {
  let sim: CarrierSimulator;
  let app: FastifyInstance;
  beforeAll(async () => {
    sim = await startSimulator({ dataDir: null, password: 'p' });
    sim.learnApps(APPS);
    app = await server(sim);
  });
  afterAll(async () => {
    await app.close();
    await sim.close();
  });

  const form = (url: string, fields: Record<string, string>, origin?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        host: HOST,
        'content-type': 'application/x-www-form-urlencoded',
        ...(origin ? { origin } : {}),
      },
      payload: new URLSearchParams(fields).toString(),
    });

  it('shows the outbox newest first, escaped, with no inline script or style', async () => {
    sim.phoneSends('94771234567', 'REG KATHAMALA');
    sim.phoneSends('94771234567', 'REG <script>alert(1)</script>');
    const res = await app.inject({ method: 'GET', url: '/dev/sms/', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const html = res.body;
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain('<link rel="stylesheet" href="/dev/sms/style.css">');
    // Newest first: the error reply comes before the welcome.
    expect(html.indexOf('is not a service')).toBeLessThan(html.indexOf('Welcome to Kathamala'));
    expect(html).toContain('&lt;SCRIPT&gt;');
    expect(html).toContain('077 123 4567');
    expect(html).toContain('Author &lt;One&gt; (REG AUTHORONE)');
    const css = await app.inject({ method: 'GET', url: '/dev/sms/style.css' });
    expect(css.headers['content-type']).toMatch(/text\/css/);
  });

  it('sends an SMS as a phone and comes back with what happened', async () => {
    const res = await form(
      '/dev/sms/send',
      { from: '071 555 0000', to: '77011', text: 'REG AUTHORONE' },
      `http://${HOST}`,
    );
    expect(res.statusCode).toBe(303);
    const said = new URL(res.headers.location!, `http://${HOST}`).searchParams.get('said');
    expect(said).toMatch(/94715550000 joined APP_AUTHOR_1/);
    expect(sim.subscriber('APP_AUTHOR_1', '94715550000')?.status).toBe('active');
    const page = await app.inject({ method: 'GET', url: res.headers.location! });
    expect(page.body).toContain('94715550000 joined APP_AUTHOR_1');
  });

  it('charges, with success or failure', async () => {
    const origin = `http://${HOST}`;
    const fail = { mobile: '0715550000', appId: 'APP_AUTHOR_1', result: 'fail' };
    expect((await form('/dev/sms/charge', fail, origin)).statusCode).toBe(303);
    expect(sim.subscriber('APP_AUTHOR_1', '94715550000')?.status).toBe('lapsed');
    const ok = { ...fail, result: 'ok' };
    expect((await form('/dev/sms/charge', ok, origin)).statusCode).toBe(303);
    expect(sim.subscriber('APP_AUTHOR_1', '94715550000')?.status).toBe('active');
  });

  it('says so when the number is not a mobile number', async () => {
    const res = await form('/dev/sms/send', { from: '12345', text: 'STOP' }, `http://${HOST}`);
    expect(decodeURIComponent(res.headers.location!)).toMatch(/not a Sri Lankan mobile number/);
  });

  it('refuses a POST from another origin or with none', async () => {
    const before = sim.outbox().length;
    const fields = { from: '0771234567', to: '77100', text: 'UNREG KATHAMALA' };
    for (const origin of [undefined, 'null', 'http://evil.example', `https://${HOST}.evil.lk`]) {
      const res = await form('/dev/sms/send', fields, origin);
      expect(res.statusCode, String(origin)).toBe(403);
    }
    expect(sim.subscriber(PRODUCT_APP_ID, '94771234567')?.status).toBe('active');
    expect(sim.outbox().length).toBe(before);
  });
});

it('is not there when a real carrier is configured', async () => {
  const app = await server(null);
  const res = await app.inject({ method: 'GET', url: '/dev/sms/' });
  expect(res.statusCode).toBe(404);
  await app.close();
});
