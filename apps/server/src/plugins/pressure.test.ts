import { afterEach, describe, expect, it } from 'vitest';
import { ResultCode } from '@kathamala/domain';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('load shedding (past capacity: 503 with Retry-After, never a hang)', () => {
  it('answers 503, Retry-After and {code, message} past the heap threshold; health is exempt', async () => {
    // 1 MB of heap is always exceeded.
    t = await createTestApp({
      DEMO_SEED: '0',
      PRESSURE_MAX_HEAP_MB: '1',
      PRESSURE_RETRY_AFTER_SECONDS: '7',
    });
    // Start-up's samples do not count: answered until two samples after ready.
    expect((await t.app.inject('/api/v1/story/listV2/')).statusCode).toBe(200);
    await sleep(3300);
    const res = await t.app.inject('/api/v1/story/listV2/');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['content-security-policy']).toBeTruthy();
    const body = res.json();
    expect(body.code).toBe(ResultCode.tooManyRequests);
    expect(body.message).toMatch(/busy.*try again in 7 seconds/);
    // Writes too: nothing reaches the rate limiter or the database.
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: { email: 'x@example.com', password: 'correct horse battery', username: 'X' },
    });
    expect(write.statusCode).toBe(503);
    // A proxy must still see the instance alive.
    expect((await t.app.inject('/api/health')).statusCode).toBe(200);
  }, 60_000);

  it('refuses requests past PRESSURE_MAX_IN_FLIGHT at once and takes them again after', async () => {
    t = await createTestApp({
      DEMO_SEED: '0',
      PRESSURE_MAX_IN_FLIGHT: '2',
      // Only the count: a busy test machine must not trip the delay check.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    t.app.get('/api/v1/test/slow', async () => {
      await gate;
      return { code: 0, object: {} };
    });
    const slow = [t.app.inject('/api/v1/test/slow'), t.app.inject('/api/v1/test/slow')];
    await sleep(100);
    const started = Date.now();
    const third = await t.app.inject('/api/v1/story/listV2/');
    expect(third.statusCode).toBe(503);
    expect(third.json()).toMatchObject({ code: ResultCode.tooManyRequests });
    expect(third.headers['retry-after']).toBe('5');
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await t.app.inject('/api/health')).statusCode).toBe(200);
    release();
    for (const res of await Promise.all(slow)) expect(res.statusCode).toBe(200);
    // The count went back down: answered normally again.
    expect((await t.app.inject('/api/v1/story/listV2/')).statusCode).toBe(200);
    expect((await t.app.inject('/api/v1/story/listV2/')).statusCode).toBe(200);
  }, 60_000);

  it('reads its thresholds from the environment, with sensible defaults', () => {
    const d = loadConfig({}).pressure;
    expect(d.maxEventLoopDelayMs).toBe(1000);
    expect(d.maxInFlight).toBe(500);
    expect(d.maxRssBytes).toBe(0);
    expect(d.maxHeapUsedBytes).toBeGreaterThan(100 * 1024 * 1024);
    expect(loadConfig({}).shutdownTimeoutSeconds).toBe(25);
    const c = loadConfig({
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      PRESSURE_MAX_RSS_MB: '512',
      SHUTDOWN_TIMEOUT_SECONDS: '10',
    });
    expect(c.pressure.maxEventLoopDelayMs).toBe(0);
    expect(c.pressure.maxRssBytes).toBe(512 * 1024 * 1024);
    expect(c.shutdownTimeoutSeconds).toBe(10);
    expect(() => loadConfig({ PRESSURE_MAX_IN_FLIGHT: '-1' })).toThrow(/PRESSURE_MAX_IN_FLIGHT/);
  }, 60_000);
});
