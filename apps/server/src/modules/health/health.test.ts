import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { ResultCode } from '@kathamala/domain';
import { clearOfRateWindowEnd, createTestApp, type TestApp } from '../../test/helpers.ts';
import { healthRoutes } from './routes.ts';
import { healthService, type HealthService } from './service.ts';
import type { HealthRepo } from './repo.ts';

describe('GET /healthz on the real app', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A tiny overall budget: health probes must never use it up.
    t = await createTestApp({ DEMO_SEED: '0', RATE_LIMIT_MAX: '3' });
  });
  afterAll(() => t.close());

  it('answers 200 {status: ok} when the database answers, uncached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });

  it('is outside the rate limit', async () => {
    await clearOfRateWindowEnd();
    for (let i = 0; i < 10; i++)
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // The same budget on an ordinary route runs out.
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await t.app.inject({ method: 'GET', url: '/categories.json' })).statusCode);
    expect(codes).toContain(429);
  });
});

describe('health check', () => {
  const repo = (ping: () => Promise<void>): HealthRepo => ({ ping });

  it('fails within its timeout when the database hangs', async () => {
    const started = Date.now();
    const result = await healthService(
      repo(() => new Promise(() => {})),
      100,
    ).check();
    expect(result).toEqual({ ok: false, reason: 'no answer within 100 ms' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails with the reason when the database refuses', async () => {
    const result = await healthService(
      repo(() => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432'))),
    ).check();
    expect(result).toEqual({ ok: false, reason: 'connect ECONNREFUSED 10.0.0.5:5432' });
  });

  it('answers 503 {code, message}, logs the failure once and a success not at all', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    let healthy = true;
    const health: HealthService = {
      check: async () => (healthy ? { ok: true } : { ok: false, reason: 'database is down' }),
    };
    const app = Fastify({ logger: { level: 'info', stream } });
    healthRoutes(app, health);
    await app.ready();
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect(lines).toEqual([]);
      healthy = false;
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: ResultCode.internal, message: expect.any(String) });
      expect(res.json().message).toMatch(/database/);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, reason: 'database is down' });
    } finally {
      await app.close();
    }
  });
});
