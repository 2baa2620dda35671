import { DrizzleQueryError, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** The shape pg-boss calls to run its SQL (its `db` option). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The few PGlite methods we need; PGlite's `query` takes one statement, `exec` many. */
interface PgliteLike {
  exec(text: string): Promise<Array<{ rows: Record<string, unknown>[]; fields: unknown[] }>>;
  transaction<T>(fn: (tx: PgliteLike) => Promise<T>): Promise<T>;
}

/** Turns pg-style `$1..$n` text and its values into one Drizzle query. */
export function toDrizzleSql(text: string, values: readonly unknown[]): SQL {
  // Split keeps the captured placeholder numbers at the odd indexes. A number may occur
  // more than once (pg-boss reuses `$5`); each occurrence becomes its own Drizzle param.
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) chunks.push(sql.raw(part));
      return;
    }
    const n = Number(part);
    if (n < 1 || n > values.length) throw new Error(`SQL placeholder $${n} has no value`);
    chunks.push(sql`${sql.param(values[n - 1] ?? null)}`);
  });
  return sql.join(chunks);
}

/** pg-boss wraps schema and maintenance scripts in `BEGIN; ...; COMMIT;`. */
const LOCKED_SCRIPT = /^\s*BEGIN;([\s\S]*?);?\s*COMMIT;\s*$/;

const rowsOne = (result: unknown): Record<string, unknown>[] => {
  const rows = (result as { rows?: Record<string, unknown>[] } | undefined)?.rows;
  return Array.isArray(rows) ? rows : [];
};

function rowsOf(result: unknown): { rows: Record<string, unknown>[] } {
  // A multi-statement script answers one result per statement. pg-boss reads the rows of all of
  // them in order, as its own driver hands them (a claim looks for its lock's row among them).
  return { rows: Array.isArray(result) ? result.flatMap(rowsOne) : rowsOne(result) };
}

function pgliteClient(db: Db): PgliteLike | null {
  const client = (db as unknown as { $client?: Partial<PgliteLike> }).$client;
  return client && typeof client.exec === 'function' && typeof client.transaction === 'function'
    ? (client as PgliteLike)
    : null;
}

/** PostgreSQL's deadlock_detected, and how often a statement that lost one is tried. */
const DEADLOCK = '40P01';
const DEADLOCK_RETRIES = 4;

/**
 * An executor for pg-boss on a Drizzle database or transaction. It counts the statements in
 * flight so the queue can wait for them before the app closes the database.
 */
export function drizzleExecutor(
  db: Db,
  opts: { transaction: boolean },
): SqlExecutor & { drain(): Promise<void> } {
  // Inside a caller's transaction everything must go through it: on PGlite the client is
  // locked by that transaction until it ends.
  const pglite = opts.transaction ? null : pgliteClient(db);
  const inFlight = new Set<Promise<unknown>>();

  const run = async (text: string, values?: unknown[]) => {
    if (values && values.length > 0) return rowsOf(await db.execute(toDrizzleSql(text, values)));
    if (!pglite) {
      // node-postgres sends a parameterless query with the simple protocol, which takes
      // several statements; on an error the pool drops the connection, aborted block and all.
      return rowsOf(await db.execute(sql.raw(text)));
    }
    const locked = LOCKED_SCRIPT.exec(text);
    if (locked) {
      // PGlite has one connection: a failed BEGIN block run through `exec` would leave it in
      // an aborted transaction for every later query. Its own transaction rolls back instead,
      // and holds PGlite's lock so nothing else runs in between.
      return rowsOf(await pglite.transaction((tx) => tx.exec(locked[1]!)));
    }
    return rowsOf(await pglite.exec(text));
  };

  // Creating a queue (a partition of pgboss.job) while another queue's fetch or completion
  // runs can deadlock on PostgreSQL; the loser's statement was rolled back whole, so outside a
  // caller's transaction it is safe to run it again.
  const runRetrying = async (text: string, values?: unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(text, values);
      } catch (err) {
        const cause = err instanceof DrizzleQueryError ? err.cause : err;
        const code = (cause as { code?: unknown } | undefined)?.code;
        if (opts.transaction || code !== DEADLOCK || attempt >= DEADLOCK_RETRIES) throw err;
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 80 * attempt));
      }
    }
  };

  return {
    executeSql(text, values) {
      // pg-boss tells a lost start-up race from a real failure by the database's message
      // ('already exists', 'division by zero'); Drizzle's wrapper would hide it.
      const p = runRetrying(text, values).catch((err: unknown) => {
        throw err instanceof DrizzleQueryError && err.cause instanceof Error ? err.cause : err;
      });
      inFlight.add(p);
      const forget = () => inFlight.delete(p);
      p.then(forget, forget);
      return p;
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
