import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import PgBossV10 from 'pg-boss-10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { startJobQueue, type JobQueue } from './queue.ts';
import { drizzleExecutor } from './sql.ts';
import { countTurns, freshPostgres } from '../test/helpers.ts';

/** Where a test's data lives: a fresh PostgreSQL database when DATABASE_URL is set, else PGlite. */
async function freshTarget(pgliteOnDisk: boolean) {
  const base = process.env.DATABASE_URL;
  if (base) {
    const db = await freshPostgres(base);
    return { open: () => openDatabase({ databaseUrl: db.url, pgliteDir: null }), drop: db.drop };
  }
  const dir = pgliteOnDisk ? await mkdtemp(path.join(tmpdir(), 'kathamala-jobs-')) : null;
  return {
    open: () => openDatabase({ databaseUrl: null, pgliteDir: dir }),
    drop: async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Rows of a raw query (Drizzle types `execute` loosely across drivers). */
async function rows(database: Database, query: SQL) {
  return ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = () => {};

/** Waits until `check` holds, polling; fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 8000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(50);
  }
}

describe('job queue', () => {
  let target: Awaited<ReturnType<typeof freshTarget>>;
  let database: Database;
  let queue: JobQueue;

  beforeAll(async () => {
    target = await freshTarget(false);
    database = await target.open();
    queue = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
  });

  afterAll(async () => {
    await queue?.stop();
    await database?.close();
    await target?.drop();
  });

  it('runs a job sent in a committed transaction once, and never one rolled back', async () => {
    const seen: string[] = [];
    // The first send creates the queue inside the transaction, and the rollback undoes both.
    await database.db
      .transaction(async (tx) => {
        await queue.send('tx-test', { marker: 'rolled back' }, {}, tx);
        throw new Error('roll back');
      })
      .catch(() => {});
    const id = await database.db.transaction((tx) =>
      queue.send('tx-test', { marker: 'committed' }, {}, tx),
    );
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await queue.work<{ marker: string }>('tx-test', async (job) => {
      seen.push(job.data.marker);
    });
    await eventually(() => seen.length > 0);
    await sleep(1200);
    expect(seen).toEqual(['committed']);
  });

  it('starts a job sent outside a transaction at once, without waiting for the next look', async () => {
    const slow = await startJobQueue(database, { pollingIntervalSeconds: 30, onError: quiet });
    try {
      const seen: string[] = [];
      await slow.work<{ n: number }>('wake-test', async (job) => {
        seen.push(`job ${job.data.n}`);
      });
      // Let the loop find the queue empty and go to sleep: only a wake brings it back now.
      await sleep(300);
      const started = Date.now();
      await slow.send('wake-test', { n: 1 });
      await eventually(() => seen.length === 1);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(seen).toEqual(['job 1']);
    } finally {
      await slow.stop();
    }
  });

  it('lets the event loop turn between jobs, so a backlog never holds up requests', async () => {
    const backlog = 12;
    for (let n = 0; n < backlog; n++) await queue.send('turns-test', { n });
    const seen: number[] = [];
    const turns = countTurns();
    try {
      await queue.work<{ n: number }>('turns-test', async () => {
        seen.push(turns.now());
      });
      await eventually(() => seen.length === backlog);
    } finally {
      turns.stop();
    }
    // Each job started on a turn of its own, none in the turn its predecessor ended in.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
  });

  it('does not run a job before startAfter, and runs it after', async () => {
    const ranAt: number[] = [];
    await queue.work('later-test', async () => {
      ranAt.push(Date.now());
    });
    const sentAt = Date.now();
    await queue.send('later-test', { n: 1 }, { startAfter: new Date(sentAt + 1500) });
    await sleep(1000);
    expect(ranAt).toEqual([]);
    await eventually(() => ranAt.length === 1);
    expect(ranAt[0]! - sentAt).toBeGreaterThanOrEqual(1400);
  });

  it('retries a job whose handler throws, until it succeeds', async () => {
    let attempts = 0;
    let done = false;
    await queue.work('retry-test', async () => {
      attempts++;
      if (attempts === 1) throw new Error('first attempt fails');
      done = true;
    });
    await queue.send('retry-test', {}, { retryDelay: 0, retryBackoff: false });
    await eventually(() => done);
    expect(attempts).toBe(2);
    const job = async () =>
      (await rows(
        database,
        sql`select state, retry_count from pgboss.job where name = 'retry-test'`,
      )) as { state: string; retry_count: number }[];
    // pg-boss records the outcome after the handler returns: wait for it to leave 'active'.
    await eventually(async () => (await job())[0]?.state !== 'active');
    expect(await job()).toEqual([{ state: 'completed', retry_count: 1 }]);
  });

  it('runs jobs fetched in a batch once each; a failing one is retried alone', async () => {
    for (let n = 1; n <= 5; n++)
      await queue.send('batch-test', { n }, { retryDelay: 0, retryBackoff: false });
    const runs: number[] = [];
    await queue.work<{ n: number }>(
      'batch-test',
      async (job) => {
        runs.push(job.data.n);
        if (job.data.n === 3 && runs.filter((n) => n === 3).length === 1)
          throw new Error('first attempt of job 3 fails');
      },
      { batchSize: 10 },
    );
    await eventually(() => runs.length === 6);
    await sleep(1500);
    expect(runs.toSorted()).toEqual([1, 2, 3, 3, 4, 5]);
    const states = (await rows(
      database,
      sql`select data->>'n' as n, state, retry_count from pgboss.job where name = 'batch-test' order by 1`,
    )) as { n: string; state: string; retry_count: number }[];
    expect(states.map((s) => [s.n, s.state, s.retry_count])).toEqual([
      ['1', 'completed', 0],
      ['2', 'completed', 0],
      ['3', 'completed', 1],
      ['4', 'completed', 0],
      ['5', 'completed', 0],
    ]);
  });

  it('stopping mid-batch waits for the running job only; the rest run once, elsewhere', async () => {
    const first = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
    for (let n = 1; n <= 3; n++)
      await first.send('stop-batch-test', { n }, { retryDelay: 0, retryBackoff: false });
    const runs: number[] = [];
    let started = false;
    await first.work<{ n: number }>(
      'stop-batch-test',
      async (job) => {
        started = true;
        await sleep(500);
        runs.push(job.data.n);
      },
      { batchSize: 10 },
    );
    await eventually(() => started);
    await first.stop();
    // One handler was running when the stop came; it finished, the other two never started.
    expect(runs).toHaveLength(1);
    const second = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
    await second.work<{ n: number }>('stop-batch-test', async (job) => {
      runs.push(job.data.n);
    });
    await eventually(() => runs.length === 3);
    await second.stop();
    expect(runs.toSorted()).toEqual([1, 2, 3]);
  });

  it('waits for a running handler when stopping, and records its job as done', async () => {
    const second = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
    let started = false;
    let finished = false;
    await second.work('stop-test', async () => {
      started = true;
      await sleep(700);
      finished = true;
    });
    await second.send('stop-test', {});
    await eventually(() => started);
    await second.stop();
    expect(finished).toBe(true);
    expect(
      await rows(database, sql`select state from pgboss.job where name = 'stop-test'`),
    ).toEqual([{ state: 'completed' }]);
  });
});

describe('job queue on a fresh database', () => {
  it('installs pg-boss and supervises it without an error', async () => {
    const target = await freshTarget(false);
    const database = await target.open();
    const errors: string[] = [];
    try {
      const queue = await startJobQueue(database, {
        onError: (err, context) => errors.push(`${context}: ${String(err)}`),
      });
      // Supervision and pg-boss's own migrations runner take their first turn just after start.
      await sleep(1500);
      await queue.stop();
      expect(errors).toEqual([]);
    } finally {
      await database.close();
      await target.drop();
    }
  });

  it('starts two servers at once: pg-boss installs its schema once', async () => {
    const target = await freshTarget(false);
    // Two pools on PostgreSQL race for real; PGlite has one connection per process.
    const a = await target.open();
    const b = process.env.DATABASE_URL ? await target.open() : a;
    try {
      const queues = await Promise.all([
        startJobQueue(a, { onError: quiet }),
        startJobQueue(b, { onError: quiet }),
      ]);
      await Promise.all(queues.map((q) => q.stop()));
      expect(await rows(a, sql`select version from pgboss.version`)).toHaveLength(1);
    } finally {
      await a.close();
      if (b !== a) await b.close();
      await target.drop();
    }
  });
});

describe('job queue stopping', () => {
  it('stops at once when a loop was fetching as the stop began', async () => {
    const target = await freshTarget(false);
    const database = await target.open();
    try {
      // A loop that finds nothing naps 15 polls (30 s here) unless woken.
      const queue = await startJobQueue(database, { pollingIntervalSeconds: 2, onError: quiet });
      await queue.work('stop-test', async () => {});
      // The loop's first fetch is in flight now: it finds nothing after the stop woke everyone.
      const started = Date.now();
      await queue.stop();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await database.close();
      await target.drop();
    }
  }, 40_000);
});

describe('job queue across a restart', () => {
  it('runs a job sent before the server stopped once it is back', async () => {
    const target = await freshTarget(true);
    try {
      let database = await target.open();
      let queue = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
      await queue.send(
        'restart-test',
        { episodeId: 7 },
        { startAfter: new Date(Date.now() + 1000) },
      );
      await queue.stop();
      await database.close();

      database = await target.open();
      queue = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
      const seen: number[] = [];
      await queue.work<{ episodeId: number }>('restart-test', async (job) => {
        seen.push(job.data.episodeId);
      });
      await eventually(() => seen.length === 1);
      expect(seen).toEqual([7]);
      await queue.stop();
      await database.close();
    } finally {
      await target.drop();
    }
  });
});

describe('job queue on a database pg-boss 10 kept', () => {
  it('moves the jobs not done to the new schema on start: each runs once, none done runs again', async () => {
    const target = await freshTarget(true);
    try {
      // What a server of the previous release left: a job due, one for later, one in a
      // singleton slot, one running when the server died, and one done.
      let database = await target.open();
      const old = new PgBossV10({
        db: drizzleExecutor(database.db, { transaction: false }),
        schema: 'pgboss',
        supervise: false,
        schedule: false,
      });
      await old.start();
      for (const name of ['v10-due', 'v10-later', 'v10-slot', 'v10-running', 'v10-done'])
        await old.createQueue(name);
      await old.send('v10-due', { n: 1 });
      const laterAt = Date.now() + 2500;
      await old.send('v10-later', { n: 2 }, { startAfter: new Date(laterAt) });
      const slot = { singletonKey: 'day-1', singletonSeconds: 3600 };
      await old.send('v10-slot', { n: 3 }, slot);
      await old.send('v10-running', { n: 4 });
      expect(await old.fetch('v10-running')).toHaveLength(1);
      await old.send('v10-done', { n: 5 });
      const [done] = await old.fetch('v10-done');
      await old.complete('v10-done', done!.id);
      await old.stop({ graceful: false, close: false, wait: true });
      await database.close();

      database = await target.open();
      const queue = await startJobQueue(database, { pollingIntervalSeconds: 0.5, onError: quiet });
      try {
        const [version] = await rows(database, sql`select version from pgboss.version`);
        expect((version as { version: number }).version).toBeGreaterThan(24);
        expect(
          await rows(database, sql`select to_regnamespace('pgboss_v10') is null as gone`),
        ).toEqual([{ gone: true }]);
        // The slot is kept: the same key in the same slot is not sent a second time.
        expect(await queue.send('v10-slot', { n: 6 }, slot)).toBeNull();

        const ran: { name: string; n: number; at: number }[] = [];
        for (const name of ['v10-due', 'v10-later', 'v10-slot', 'v10-running', 'v10-done'])
          await queue.work<{ n: number }>(name, async (job) => {
            ran.push({ name, n: job.data.n, at: Date.now() });
          });
        await eventually(() => ran.length >= 4);
        await sleep(1200);
        expect(ran.map((r) => `${r.name} ${r.n}`).sort()).toEqual([
          'v10-due 1',
          'v10-later 2',
          'v10-running 4',
          'v10-slot 3',
        ]);
        expect(ran.find((r) => r.name === 'v10-later')!.at).toBeGreaterThanOrEqual(laterAt - 100);
      } finally {
        await queue.stop();
        await database.close();
      }
    } finally {
      await target.drop();
    }
  });
});
