import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { PgBoss, type Job } from 'pg-boss';
import type { Database, Db } from '../db/client.ts';
import { drizzleExecutor, type SqlExecutor } from './sql.ts';
import { carryOverV10Jobs, setAsideV10Schema } from './v10-carry-over.ts';

export interface SendOptions {
  /** Not run before this time (the database's clock decides). */
  startAfter?: Date;
  /**
   * Stored with the job. pg-boss does not deduplicate on it alone in our (standard) queues, so
   * handlers must be idempotent.
   */
  singletonKey?: string;
  /** With singletonKey: at most one job per key in each slot of this many seconds (pg-boss throttling). */
  singletonSeconds?: number;
  /** Retries after the first failure (default 5). */
  retryLimit?: number;
  /** Seconds before a retry (default 5; doubled each time with backoff). */
  retryDelay?: number;
  /** Exponential backoff with jitter between retries (default true). */
  retryBackoff?: boolean;
  /** Seconds a running job may take before supervision fails it for a retry (default 300). */
  expireInSeconds?: number;
}

export interface JobQueue {
  /** Enqueues a job; with `tx` (a Drizzle transaction) it commits or rolls back with the caller's change. */
  send(name: string, data: object, opts?: SendOptions, tx?: Db): Promise<string | null>;
  /** Enqueues many jobs of one name in one statement, inside `tx` (a Drizzle transaction). */
  sendMany(name: string, jobs: { data: object; singletonKey?: string }[], tx: Db): Promise<void>;
  /**
   * Runs `handler` for jobs of `name`; a throw fails the job and pg-boss retries it. With
   * `batchSize`, up to that many due jobs are fetched at once, run one after another and the
   * ones done recorded in one statement: for many small jobs (each must finish well within its
   * expiry counted from the fetch).
   */
  work<T extends object>(
    name: string,
    handler: (job: { id: string; data: T }) => Promise<void>,
    opts?: { batchSize?: number },
  ): Promise<void>;
  /** Stops polling and waits for running handlers; leaves the app's database open. */
  stop(): Promise<void>;
}

/** pg-boss keeps its tables here, apart from the app's. */
const SCHEMA = 'pgboss';
/**
 * Every job's defaults, sent with each job (pg-boss 11 on keeps defaults per queue, not per
 * instance; a queue's stored ones would lag behind a change here). Five retries, about 5-10,
 * 10-20, 20-40, 40-80 and 80-160 s apart. A job still active `expireInSeconds` after it started
 * (its process died) is failed by supervision and retried: handlers must finish well within it.
 */
const JOB_DEFAULTS = { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 5 * 60 };
/** How our queues are made (the same defaults stored on the queue, for anyone reading it). */
const QUEUE_OPTIONS = { policy: 'standard', ...JOB_DEFAULTS } as const;
/** Advisory lock key for starting pg-boss (727001 is the app's migrations). */
const START_LOCK = 727002;
/** How long stop() waits for running handlers before giving up on them. */
const STOP_TIMEOUT_MS = 30_000;

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Starts pg-boss on the app's database (PGlite or PostgreSQL); pg-boss creates or migrates
 * its `pgboss` schema under an advisory lock, so servers may start together.
 */
export async function startJobQueue(
  database: Database,
  opts: {
    pollingIntervalSeconds?: number;
    /** Where failures go (handler throws, database errors); default console.error. */
    onError?: (err: unknown, context: string) => void;
  } = {},
): Promise<JobQueue> {
  const pollMs = Math.max(0.1, opts.pollingIntervalSeconds ?? 2) * 1000;
  const onError =
    opts.onError ?? ((err, context) => console.error(`Job queue: ${context}: ${describe(err)}`));
  const own = drizzleExecutor(database.db, { transaction: false });
  /**
   * While pg-boss sends a job inside a caller's transaction, the statements it runs on its own
   * connection (reading the queue's row into its cache) go through that transaction too: on
   * PGlite the transaction holds the one connection, and a queue it just created is visible only
   * inside it. AsyncLocalStorage scopes this to that one send() and what it awaits.
   */
  const callerTx = new AsyncLocalStorage<SqlExecutor>();
  const executor: SqlExecutor = {
    executeSql: (text, values) => (callerTx.getStore() ?? own).executeSql(text, values),
  };
  const boss = new PgBoss({
    db: executor,
    schema: SCHEMA,
    backend: database.kind === 'postgres' ? 'postgres' : 'pglite',
    // No cron schedules: that would add a poller of its own for nothing.
    schedule: false,
    // Supervision (one server at a time): fails expired active jobs so they are retried, and
    // deletes finished jobs 7 days after they end.
    supervise: true,
    // No flows (dependent jobs) here: their resolver need not look every 5 s.
    flowIntervalSeconds: 3600,
    // No instance registry: a row written every 30 s per server, read by nothing of ours.
    registerInstance: false,
  });
  // An EventEmitter without an 'error' listener throws; pg-boss reports maintenance errors here.
  boss.on('error', (err) => onError(err, 'maintenance'));
  boss.on('warning', (w) => onError(new Error(w.message), 'warning'));

  // Queues known to exist (committed). A queue created inside a caller's transaction is not
  // remembered: the transaction may roll back.
  const created = new Map<string, Promise<void>>();
  const ensureQueue = (name: string) => {
    let p = created.get(name);
    if (!p) {
      p = boss.createQueue(name, QUEUE_OPTIONS);
      created.set(name, p);
      p.catch(() => created.delete(name));
    }
    return p;
  };

  /** Installs or migrates pg-boss's schema, bringing over the jobs of a pg-boss 10 one. */
  const install = async () => {
    await setAsideV10Schema(own, SCHEMA);
    await boss.start();
    await carryOverV10Jobs(database.db, SCHEMA, ensureQueue);
  };
  if (database.kind === 'postgres') {
    // pg-boss installs its schema under a transaction-level advisory lock, but a server that
    // waited on that lock still sees the catalog as of before it (advisory locks do not
    // refresh it) and fails on "duplicate key ... pg_namespace". Holding our own lock on
    // another connection around start() makes the later server find pg-boss installed.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${START_LOCK})`);
      await install();
    });
  } else {
    // PGlite is one connection in one process: nothing to race with.
    await install();
  }

  let stopping = false;
  const loops: Promise<void>[] = [];
  /** Each queue's loop, asleep until a job may be due: its wake function. */
  const wakers = new Map<string, Set<() => void>>();
  const nap = (name: string, ms: number) =>
    new Promise<void>((resolve) => {
      // A loop whose fetch was in flight when stop() woke the others must not sleep past it.
      if (stopping) return resolve();
      const set = wakers.get(name) ?? new Set();
      wakers.set(name, set);
      const wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  const wake = (name: string) => {
    for (const w of [...(wakers.get(name) ?? [])]) w();
  };
  const wakeAll = () => {
    for (const name of wakers.keys()) wake(name);
  };

  // One look for due jobs across every queue per interval, instead of a fetch per queue: on
  // PGlite each query holds the one connection that readers' requests wait for. Only queues
  // with a job due are woken to fetch it (pg-boss's own fetch index serves this: job_i11).
  const DUE_JOBS = `SELECT DISTINCT name FROM ${SCHEMA}.job
    WHERE state < 'active' AND NOT blocked AND start_after < now() AND name = ANY($1::text[])`;
  /** A loop that was not woken still looks this often, in case a look went wrong. */
  const FALLBACK_NAPS = 15;
  let tickerWake = () => {};
  const ticker = (async () => {
    while (!stopping) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        tickerWake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping || wakers.size === 0) continue;
      try {
        const { rows } = await own.executeSql(DUE_JOBS, [[...wakers.keys()]]);
        for (const row of rows) wake(String(row.name));
      } catch (err) {
        onError(err, 'looking for due jobs');
      }
    }
  })();

  // Our own loop on fetch/complete/fail rather than boss.work(): one look for due jobs serves
  // every queue (above), and stop() returns only once each job fetched is recorded as done or
  // failed, before the app closes the database.
  /** Fails jobs fetched but not started, for a retry elsewhere. */
  const giveBack = async (name: string, attempts: { id: string; retryCount: number }[]) => {
    try {
      await boss.fail(name, attempts, { value: 'not started: the server was stopping' });
    } catch (err) {
      onError(err, `handing back ${attempts.length} job(s) ${name}`);
    }
  };

  const runLoop = async <T extends object>(
    name: string,
    handler: (job: { id: string; data: T }) => Promise<void>,
    batchSize: number,
  ) => {
    while (!stopping) {
      let jobs: Job<T>[] = [];
      try {
        jobs = await boss.fetch<T>(name, { batchSize });
      } catch (err) {
        onError(err, `fetching ${name}`);
      }
      if (jobs.length === 0) {
        await nap(name, pollMs * FALLBACK_NAPS);
        continue;
      }
      // Settled as the attempt each was fetched as: if it outlived its expiry and was handed out
      // again, this late answer leaves the new attempt alone.
      const done: { id: string; retryCount: number }[] = [];
      const attempts = jobs.map((job) => ({ id: job.id, retryCount: job.retryCount }));
      for (const [i, job] of jobs.entries()) {
        const attempt = attempts[i]!;
        if (stopping) {
          // Not started: handed back as a failed attempt, so another instance (or this one,
          // restarted) runs them in seconds, and the drain waits for one handler, not a batch.
          await giveBack(name, attempts.slice(i));
          break;
        }
        try {
          await handler({ id: job.id, data: job.data });
          done.push(attempt);
        } catch (error) {
          onError(error, `job ${name} ${job.id} failed (retried while retries remain)`);
          try {
            await boss.fail(
              name,
              attempt,
              error instanceof Error ? error : { value: String(error) },
            );
          } catch (err) {
            onError(err, `recording the failure of job ${name} ${job.id}`);
          }
        }
      }
      if (done.length === 0) continue;
      try {
        await boss.complete(name, done);
      } catch (err) {
        onError(err, `recording the end of ${done.length} job(s) ${name}`);
      }
    }
  };

  /** The caller's transaction as pg-boss's executor, with the queue `name` made in it. */
  const inCallerTx = async (name: string, tx: Db) => {
    const via = drizzleExecutor(tx, { transaction: true });
    // The queue must exist for the insert; creating it through the caller's transaction keeps
    // PGlite (one connection, locked by that transaction) from waiting on itself.
    if (!created.has(name))
      await via.executeSql(`SELECT ${SCHEMA}.create_queue($1, $2)`, [name, QUEUE_OPTIONS]);
    return via;
  };

  return {
    async send(name, data, options = {}, tx) {
      if (!tx) {
        await ensureQueue(name);
        const id = await boss.send(name, data, { ...JOB_DEFAULTS, ...options });
        // Committed already: a job due now starts without waiting for the next look.
        if (!options.startAfter) wake(name);
        return id;
      }
      const via = await inCallerTx(name, tx);
      return callerTx.run(via, () =>
        boss.send(name, data, { ...JOB_DEFAULTS, ...options, db: via }),
      );
    },

    async sendMany(name, jobs, tx) {
      if (jobs.length === 0) return;
      const via = await inCallerTx(name, tx);
      await callerTx.run(via, () =>
        boss.insert(
          name,
          jobs.map((j) => ({ ...JOB_DEFAULTS, ...j })),
          { db: via },
        ),
      );
    },

    async work(name, handler, opts = {}) {
      if (stopping) throw new Error('The job queue is stopped');
      await ensureQueue(name);
      loops.push(runLoop(name, handler, Math.max(1, opts.batchSize ?? 1)));
    },

    async stop() {
      if (stopping) return;
      stopping = true;
      wakeAll();
      tickerWake();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        Promise.allSettled([...loops, ticker]).then(() => false),
        new Promise<boolean>(
          (resolve) => (timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS)),
        ),
      ]);
      clearTimeout(timer);
      if (timedOut)
        onError(
          new Error('handlers still running'),
          'stopping (their jobs are retried after expiry)',
        );
      await boss.stop({ graceful: true, close: false, timeout: 1000 });
      // Maintenance may have a statement in flight; the app closes the database after us.
      await own.drain();
    },
  };
}
