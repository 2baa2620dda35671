// The hybrid rate-limit store: counts in memory far under a limit, in PostgreSQL near it, one
// budget across instances. Needs PostgreSQL: skipped without DATABASE_URL (npm test and CI set it
// through scripts/with-postgres.sh).
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { clearOfRateWindowEnd, freshPostgres } from '../test/helpers.ts';
import { FLUSH_MS, FRESH_MS, postgresRateLimitStore } from './rate-limit-store.ts';

const PG = process.env.DATABASE_URL;

/** The database with every statement counted. */
const counting = (db: Db) => {
  const counter = { statements: 0 };
  const wrapped = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'execute')
        return (q: Parameters<Db['execute']>[0]) => {
          counter.statements++;
          return target.execute(q);
        };
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { db: wrapped, counter };
};

/**
 * The tests' limit window. Windows are fixed on the clock, so a test that crossed a window's end
 * would see its count start again (CI met that twice with one-minute windows); an hour, and a
 * start clear of its end (beforeEach), keeps every test inside one window.
 */
const WINDOW_MS = 3_600_000;
/** Longer than any one test here takes, even on a loaded machine. */
const EDGE_MARGIN_MS = 30_000;

/** A tiny app with one limited route on the given store, as buildApp registers the plugin. */
async function tinyApp(Store: unknown, max: number): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(rateLimit, {
    store: Store as FastifyRateLimitStoreCtor,
    skipOnError: true,
    max,
    timeWindow: WINDOW_MS,
  });
  app.get('/limited', async () => ({ code: 0 }));
  await app.ready();
  return app;
}

const hit = (app: FastifyInstance, address: string) =>
  app.inject({ url: '/limited', remoteAddress: address }).then((r) => r.statusCode);

describe.skipIf(!PG)(
  PG
    ? 'the rate-limit store on PostgreSQL'
    : 'the rate-limit store on PostgreSQL: skipped, DATABASE_URL is not set (scripts/with-postgres.sh sets it)',
  () => {
    let pgdb: Awaited<ReturnType<typeof freshPostgres>>;
    let database: Database;
    const closers: (() => Promise<unknown>)[] = [];

    beforeAll(async () => {
      pgdb = await freshPostgres(PG!);
      database = await openDatabase({ databaseUrl: pgdb.url, pgliteDir: null });
    }, 60_000);

    // Windows are fixed on the clock: each test starts clear of one's end.
    beforeEach(() => clearOfRateWindowEnd(WINDOW_MS, EDGE_MARGIN_MS), EDGE_MARGIN_MS + 10_000);

    afterAll(async () => {
      for (const close of closers.reverse()) await close();
      await database?.close();
      await pgdb?.drop();
    });

    /** A store as one instance has it, and its app. */
    const instance = async (max: number, db: Db = database.db) => {
      const store = postgresRateLimitStore(db);
      const app = await tinyApp(store.Store, max);
      closers.push(() => app.close(), store.close);
      return { store, app };
    };

    const hitsOf = async (address: string) =>
      (
        (await database.db.execute(
          sql`select coalesce(sum(hits), 0)::int as hits from rate_limit_hits where key like ${'%' + address}`,
        )) as unknown as { rows: { hits: number }[] }
      ).rows[0]!.hits;

    it('allows exactly the limit across two instances, one after another and all at once', async () => {
      const a = await instance(40);
      const b = await instance(40);
      // One after another, spread at random over both.
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++)
        statuses.push(await hit(Math.random() < 0.5 ? a.app : b.app, '198.51.100.1'));
      expect(statuses.filter((s) => s === 200)).toHaveLength(40);
      expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
      // All at once, half on each.
      const burst = await Promise.all(
        Array.from({ length: 60 }, (_, i) => hit(i % 2 ? a.app : b.app, '198.51.100.2')),
      );
      expect(burst.filter((s) => s === 200)).toHaveLength(40);
      // Alternating, in small concurrent groups, while the flushes run.
      const groups: number[] = [];
      for (let i = 0; i < 12; i++) {
        groups.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, (_, j) => hit((i + j) % 2 ? a.app : b.app, '198.51.100.3')),
          )),
        );
        await new Promise((r) => setTimeout(r, 60));
      }
      expect(groups.filter((s) => s === 200)).toHaveLength(40);
    });

    it('asks again about a key another instance spent while this one was idle on it', async () => {
      const a = await instance(40);
      const b = await instance(40);
      expect(await hit(b.app, '198.51.100.4')).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push(await hit(a.app, '198.51.100.4'));
      expect(statuses.filter((s) => s === 200)).toHaveLength(39);
      // What b knew is 1 of 40; once that is older than FRESH_MS b asks PostgreSQL.
      await new Promise((r) => setTimeout(r, FRESH_MS + 50));
      expect(await hit(b.app, '198.51.100.4')).toBe(429);
    });

    it('counts a key far under its limit in memory and writes it at the next flush', async () => {
      const { db, counter } = counting(database.db);
      const { store, app } = await instance(1000, db);
      // The first request of a window asks PostgreSQL (the count so far, the database's clock).
      expect(await hit(app, '198.51.100.9')).toBe(200);
      await store.flush();
      const before = counter.statements;
      for (let i = 0; i < 50; i++) expect(await hit(app, '198.51.100.9')).toBe(200);
      expect(counter.statements - before).toBe(0);
      // The flush timer writes the 50 (every FLUSH_MS, one statement for all keys). The wait
      // allows a loaded machine's late timers; the statements are bounded by the time it took.
      const started = Date.now();
      while ((await hitsOf('198.51.100.9')) < 51 && Date.now() - started < 10_000)
        await new Promise((r) => setTimeout(r, 50));
      const waited = Date.now() - started;
      expect(await hitsOf('198.51.100.9')).toBe(51);
      expect(counter.statements - before).toBeLessThanOrEqual(Math.ceil(waited / FLUSH_MS) + 1);
    });

    it('answers from memory with the remaining budget in the headers', async () => {
      const { app } = await instance(1000);
      await hit(app, '198.51.100.10');
      const res = await app.inject({ url: '/limited', remoteAddress: '198.51.100.10' });
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
      expect(res.headers['x-ratelimit-remaining']).toBe('998');
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    });

    it('counts near the limit in PostgreSQL on every request', async () => {
      const { db, counter } = counting(database.db);
      const { app } = await instance(8, db);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push(await hit(app, '198.51.100.11'));
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
      // max 8: the first asks, the second is in memory (2 <= 8/4), the rest ask.
      expect(counter.statements).toBeGreaterThanOrEqual(9);
      expect(await hitsOf('198.51.100.11')).toBe(10);
    });

    it('lets requests through when the database cannot count', async () => {
      const broken = new Proxy(database.db, {
        get(target, prop) {
          if (prop === 'execute') return () => Promise.reject(new Error('connection refused'));
          return Reflect.get(target, prop, target) as unknown;
        },
      });
      const { app } = await instance(2, broken);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await hit(app, '198.51.100.12'));
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
    });
  },
);
