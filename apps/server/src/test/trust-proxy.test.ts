import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { clearOfRateWindowEnd, createTestApp, type TestApp } from './helpers.ts';

/*
 * Behind the compose file's proxy every request comes from the proxy's address: TRUST_PROXY
 * (the proxy's addresses) makes the rate limits count each reader (X-Forwarded-For), and without it the header is
 * ignored, so a client cannot dodge its budget by sending one.
 */
const statusesFrom = async (t: TestApp, forwardedFor: string, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      (
        await t.app.inject({
          method: 'GET',
          url: '/categories.json',
          headers: { 'x-forwarded-for': forwardedFor },
        })
      ).statusCode,
    );
  return out;
};

describe('TRUST_PROXY=127.0.0.1 (the proxy in front; app.inject comes from it)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DEMO_SEED: '0', RATE_LIMIT_MAX: '2', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('counts each forwarded client address on its own', async () => {
    await clearOfRateWindowEnd();
    expect(await statusesFrom(t, '203.0.113.7', 3)).toEqual([200, 200, 429]);
    // Another reader behind the same proxy still has a whole budget.
    expect(await statusesFrom(t, '198.51.100.23', 2)).toEqual([200, 200]);
    // Only the address the proxy saw counts: a forged entry in front of it changes nothing.
    expect(await statusesFrom(t, '192.0.2.1, 203.0.113.7', 1)).toEqual([429]);
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DEMO_SEED: '0', RATE_LIMIT_MAX: '2' });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a client cannot spread its requests over made-up addresses', async () => {
    await clearOfRateWindowEnd();
    expect(await statusesFrom(t, '203.0.113.8', 2)).toEqual([200, 200]);
    expect(await statusesFrom(t, '198.51.100.24', 1)).toEqual([429]);
  });
});

describe('TRUST_PROXY values', () => {
  it('takes addresses, CIDRs and range names, and refuses anything else naming the variable', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: 'uniquelocal, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      'uniquelocal',
      '10.0.0.0/8',
      '::1',
    ]);
    for (const bad of ['1', 'true', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY/);
  });
});
