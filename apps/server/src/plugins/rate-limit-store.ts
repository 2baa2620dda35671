import { sql } from 'drizzle-orm';
import type { FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Database, Db } from '../db/client.ts';

type Incr = (
  key: string,
  cb: (err: Error | null, res?: { current: number; ttl: number }) => void,
  timeWindow: number,
  max: number,
) => void;

/** How often each instance deletes windows that have ended (any instance's: one delete is enough). */
const SWEEP_MS = 60_000;

/**
 * A @fastify/rate-limit store that counts in PostgreSQL, so every instance spends one budget.
 * Fixed windows on the database's clock: each counted request is one upsert on
 * (limiter key, window start) returning the count and the time left. Each route limit is a child
 * store with its own key prefix, as the plugin's Redis store does.
 */
export function postgresRateLimitStore(db: Db) {
  const count = async (key: string, timeWindow: number) => {
    const res = (await db.execute(sql`
      with w as (
        select (floor(extract(epoch from clock_timestamp()) * 1000 / ${timeWindow})
                  * ${timeWindow})::bigint as start,
               (extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms)
      insert into rate_limit_hits as r (key, window_start, hits, expires_at)
      select ${key}, w.start, 1, to_timestamp((w.start + ${timeWindow}) / 1000.0) from w
      on conflict (key, window_start) do update set hits = r.hits + 1
      returning r.hits, (r.window_start + ${timeWindow} - (select now_ms from w))::int as ttl`)) as unknown as {
      rows: { hits: number; ttl: number }[];
    };
    const row = res.rows[0]!;
    return { current: Number(row.hits), ttl: Math.max(0, Number(row.ttl)) };
  };

  const sweep = setInterval(() => {
    db.execute(sql`delete from rate_limit_hits where expires_at < now()`).catch((e: Error) =>
      console.error(`Sweeping rate-limit windows failed: ${e.message}`),
    );
  }, SWEEP_MS);
  sweep.unref();

  class PostgresStore {
    readonly prefix: string;
    /** The plugin constructs the global store with its options; children get a route prefix. */
    constructor(opts?: { routeInfo?: { method?: string; url?: string } } | string) {
      this.prefix = typeof opts === 'string' ? opts : 'g:';
    }
    incr: Incr = (key, cb, timeWindow) => {
      count(this.prefix + key, timeWindow).then(
        (res) => cb(null, res),
        (e: Error) => cb(e),
      );
    };
    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string } }) {
      const info = routeOptions.routeInfo ?? {};
      return new PostgresStore(`${String(info.method ?? '')}${info.url ?? ''}:`);
    }
  }
  return { Store: PostgresStore, close: () => clearInterval(sweep) };
}

/**
 * The rate-limit plugin's options for this database: on PostgreSQL (several instances possible)
 * the shared store, failing open if the database cannot count (a counter is not worth refusing
 * a reader for); on PGlite (one process) the plugin's own in-memory store.
 */
export function sharedRateLimits(database: Database): {
  options: Partial<RateLimitPluginOptions>;
  close(): void;
} {
  if (database.kind !== 'postgres') return { options: {}, close: () => {} };
  const { Store, close } = postgresRateLimitStore(database.db);
  return {
    options: { store: Store as unknown as FastifyRateLimitStoreCtor, skipOnError: true },
    close,
  };
}
