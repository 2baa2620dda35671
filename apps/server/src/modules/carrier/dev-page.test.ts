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
import { createTestApp } from '../../test/helpers.ts';

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

  describe('to a client that is not on this machine', () => {
    const STRANGER = '203.0.113.7';
    const refused = (res: { statusCode: number; json(): unknown; body: string }) => {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({
        code: expect.any(Number),
        message: expect.stringMatching(/only on the server’s own machine/),
      });
      expect(res.body).not.toMatch(/077 123 4567|94771234567/);
    };

    it('shows neither the outbox nor the subscribers', async () => {
      sim.phoneSends('94771234567', 'REG KATHAMALA');
      for (const url of ['/dev/sms/', '/dev/sms', '/dev/sms/?said=hi', '/dev/sms/style.css'])
        refused(
          await app.inject({
            method: 'GET',
            url,
            headers: { host: HOST },
            remoteAddress: STRANGER,
          }),
        );
      // From this machine it is there.
      const own = await app.inject({ method: 'GET', url: '/dev/sms/', headers: { host: HOST } });
      expect(own.statusCode).toBe(200);
      expect(own.body).toContain('077 123 4567');
    });

    it('sends no SMS and charges nobody, even with this site’s Origin', async () => {
      const before = sim.outbox().length;
      const origin = `http://${HOST}`;
      const attempts = [
        ['/dev/sms/send', { from: '0771234567', to: '77100', text: 'UNREG KATHAMALA' }],
        ['/dev/sms/charge', { mobile: '0771234567', appId: PRODUCT_APP_ID, result: 'fail' }],
      ] as const;
      for (const [url, fields] of attempts)
        refused(
          await app.inject({
            method: 'POST',
            url,
            headers: { host: HOST, origin, 'content-type': 'application/x-www-form-urlencoded' },
            remoteAddress: STRANGER,
            payload: new URLSearchParams(fields).toString(),
          }),
        );
      expect(sim.subscriber(PRODUCT_APP_ID, '94771234567')?.status).toBe('active');
      expect(sim.outbox().length).toBe(before);
    });

    it('refuses any other /dev/ address, and this machine gets a 404 there', async () => {
      for (const method of ['GET', 'POST'] as const)
        refused(await app.inject({ method, url: '/dev/anything/else', remoteAddress: STRANGER }));
      const own = await app.inject({ method: 'GET', url: '/dev/anything/else' });
      expect(own.statusCode).toBe(404);
      expect(own.json()).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
    });

    it('refuses a client relayed by a proxy on this machine (X-Forwarded-For, Forwarded)', async () => {
      for (const headers of [
        { 'x-forwarded-for': STRANGER },
        { 'x-forwarded-for': `127.0.0.1, ${STRANGER}` },
        { forwarded: `for=${STRANGER}` },
      ])
        refused(
          await app.inject({
            method: 'GET',
            url: '/dev/sms/',
            headers: { host: HOST, ...headers },
          }),
        );
      for (const remoteAddress of ['::1', '::ffff:127.0.0.1', '127.0.0.2'])
        expect(
          (await app.inject({ method: 'GET', url: '/dev/sms/', remoteAddress })).statusCode,
          remoteAddress,
        ).toBe(200);
      for (const remoteAddress of ['::ffff:10.0.0.1', '10.0.0.1', '192.168.1.5', 'fe80::1'])
        refused(await app.inject({ method: 'GET', url: '/dev/sms/', remoteAddress }));
    });
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
  const stranger = await app.inject({
    method: 'GET',
    url: '/dev/sms/',
    remoteAddress: '203.0.113.7',
  });
  expect(stranger.statusCode).toBe(403);
  await app.close();
});

describe('in the whole server', () => {
  it('answers the page to this machine, and refuses it (not from any cache) to another', async () => {
    const t = await createTestApp({ DEMO_SEED: '0' });
    try {
      const get = (remoteAddress: string, url = '/dev/sms/') =>
        t.app.inject({ method: 'GET', url, remoteAddress, headers: { accept: 'text/html' } });
      for (const round of [1, 2]) {
        expect((await get('127.0.0.1')).statusCode, `round ${round}`).toBe(200);
        const stranger = await get('198.51.100.20');
        expect(stranger.statusCode, `round ${round}`).toBe(403);
        expect(stranger.json().message).toMatch(/only on the server’s own machine/);
      }
      expect((await get('198.51.100.20', '/dev/another/page/')).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  }, 120_000);
});
