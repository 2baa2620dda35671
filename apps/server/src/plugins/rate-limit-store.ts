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
/** How often the requests counted in memory are written to PostgreSQL, all keys in one statement. */
export const FLUSH_MS = 500;
/**
 * Memory answers while a key's known count stays at or below this share of its limit; past it
 * every request is counted in PostgreSQL, so a limit near exhaustion is exact across instances.
 */
const SAFE_FRACTION = 0.25;
/**
 * What PostgreSQL last said about a key is trusted this long: a key another instance spent
 * while this one was idle on it is asked again (one statement) rather than answered from an
 * old count.
 */
export const FRESH_MS = 2 * FLUSH_MS;
/** How long close() waits for the last flush. */
const CLOSE_WAIT_MS = 2_000;
/** Keys kept in memory at most (one per reader and route limit); beyond, requests count in PostgreSQL. */
const MAX_KEYS = 100_000;

/** One key's window as this instance knows it. */
interface Entry {
  key: string;
  /** Window start and length, ms on the database's clock. */
  start: number;
  window: number;
  /** The count PostgreSQL last answered (every instance's flushed requests). */
  global: number;
  /** Requests counted here and not yet sent, and sent but not yet answered. */
  pending: number;
  inflight: number;
  /** Local time (Date.now()) of the answer that gave `global`. */
  learnedAt: number;
}

interface Row {
  key: string;
  start: string | number;
  hits: string | number;
  now_ms: string | number;
}

/**
 * A @fastify/rate-limit store that counts in PostgreSQL, so every instance spends one budget,
 * without a database round trip per request. Fixed windows on the database's clock. The first
 * request of a key in a window is one upsert on (limiter key, window start) that answers the
 * count, the window and the database's time; the requests after it count in memory while the
 * key stays far under its limit (at most a quarter of it), and every FLUSH_MS one statement
 * adds all keys' memory counts to their rows and answers the new totals (what the other
 * instances spent included). Past a quarter of the limit, or when the known total is older
 * than FRESH_MS, a request is counted in PostgreSQL as it arrives (with the key's unflushed
 * count), so the 429 comes exactly at the limit across instances; only a burst on several
 * instances within one flush can pass it, by at most a quarter of the limit per other instance.
 * Each route limit is a child store with its own key prefix, as the plugin's Redis store does.
 */
export function postgresRateLimitStore(db: Db) {
  const entries = new Map<string, Entry>();
  /** Entries with requests counted here and not yet flushed. */
  const dirty = new Set<Entry>();
  /** Database time minus local time (ms), from the last answer; null until one came. */
  let offset: number | null = null;
  let lastFlushError = 0;

  const dbNow = () => Date.now() + (offset ?? 0);
  const learnClock = (nowMs: number, sentAt: number) => {
    offset = Number(nowMs) - (sentAt + Date.now()) / 2;
  };
  const known = (e: Entry) => e.global + e.inflight + e.pending;
  const ttlOf = (e: Entry) => Math.max(0, e.start + e.window - dbNow());

  /** Counts `n` requests of the key in the database's current window; answers the row. */
  const countNow = async (key: string, timeWindow: number, n: number) => {
    const sentAt = Date.now();
    const res = (await db.execute(sql`
      with w as (
        select (floor(extract(epoch from clock_timestamp()) * 1000 / ${timeWindow})
                  * ${timeWindow})::bigint as start,
               (extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms)
      insert into rate_limit_hits as r (key, window_start, hits, expires_at)
      select ${key}, w.start, ${n}::int, to_timestamp((w.start + ${timeWindow}) / 1000.0) from w
      on conflict (key, window_start) do update set hits = r.hits + excluded.hits
      returning r.key, r.window_start as start, r.hits, (select now_ms from w) as now_ms`)) as unknown as {
      rows: Row[];
    };
    const row = res.rows[0]!;
    learnClock(Number(row.now_ms), sentAt);
    return { start: Number(row.start), hits: Number(row.hits), nowMs: Number(row.now_ms) };
  };

  /** Counts one request (and the key's unflushed ones) in PostgreSQL, and learns the total. */
  const countSync = (key: string, timeWindow: number, cb: Parameters<Incr>[1]) => {
    let entry = entries.get(key);
    if (entry && (entry.window !== timeWindow || dbNow() >= entry.start + entry.window)) {
      // The window ended: its unflushed count no longer matters.
      dirty.delete(entry);
      entries.delete(key);
      entry = undefined;
    }
    const carried = entry?.pending ?? 0;
    if (entry) {
      entry.pending = 0;
      entry.inflight += carried;
      dirty.delete(entry);
    }
    countNow(key, timeWindow, carried + 1).then(
      (row) => {
        if (entry) entry.inflight -= carried;
        let current = entries.get(key);
        if (current && row.start > current.start) {
          dirty.delete(current);
          entries.delete(key);
          current = undefined;
        }
        if (!current && entries.size < MAX_KEYS) {
          current = {
            key,
            start: row.start,
            window: timeWindow,
            global: 0,
            pending: 0,
            inflight: 0,
            learnedAt: 0,
          };
          entries.set(key, current);
        }
        if (current && current.start === row.start) {
          current.global = Math.max(current.global, row.hits);
          current.learnedAt = Date.now();
        }
        // This request's own place in the database's count: requests answered at the same
        // time may already be counted in `current`, and must not push this one past the limit.
        cb(null, { current: row.hits, ttl: Math.max(0, row.start + timeWindow - row.nowMs) });
      },
      (e: Error) => {
        if (entry && entries.get(key) === entry) {
          // Kept for the next flush; the request itself is let through (skipOnError).
          entry.inflight -= carried;
          entry.pending += carried;
          if (entry.pending > 0) dirty.add(entry);
        }
        cb(e);
      },
    );
  };

  const incr = (key: string, timeWindow: number, max: number, cb: Parameters<Incr>[1]) => {
    const entry = entries.get(key);
    if (
      entry &&
      offset !== null &&
      entry.window === timeWindow &&
      dbNow() < entry.start + entry.window &&
      Date.now() - entry.learnedAt < FRESH_MS &&
      known(entry) + 1 <= max * SAFE_FRACTION
    ) {
      entry.pending++;
      dirty.add(entry);
      cb(null, { current: known(entry), ttl: ttlOf(entry) });
      return;
    }
    countSync(key, timeWindow, cb);
  };

  let flushing: Promise<void> | null = null;
  /** Writes every key's memory count in one statement and learns the totals back. */
  const flushOnce = async () => {
    const now = dbNow();
    for (const [key, e] of entries)
      if (now >= e.start + e.window && e.inflight === 0) {
        entries.delete(key);
        dirty.delete(e);
      }
    const batch = [...dirty].map((e) => ({ e, n: e.pending }));
    dirty.clear();
    if (batch.length === 0) return;
    for (const { e, n } of batch) {
      e.pending -= n;
      e.inflight += n;
    }
    const sentAt = Date.now();
    const json = JSON.stringify(
      batch.map(({ e, n }) => ({ k: e.key, s: e.start, w: e.window, n })),
    );
    try {
      const res = (await db.execute(sql`
        insert into rate_limit_hits as r (key, window_start, hits, expires_at)
        select v.k, v.s, v.n, to_timestamp((v.s + v.w) / 1000.0)
          from json_to_recordset(${json}::json) as v(k text, s bigint, w bigint, n int)
        on conflict (key, window_start) do update set hits = r.hits + excluded.hits
        returning r.key, r.window_start as start, r.hits,
                  (extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms`)) as unknown as {
        rows: Row[];
      };
      const learnedAt = Date.now();
      const byKey = new Map(res.rows.map((r) => [`${Number(r.start)}:${r.key}`, r]));
      if (res.rows[0]) learnClock(Number(res.rows[0].now_ms), sentAt);
      for (const { e, n } of batch) {
        e.inflight -= n;
        const row = byKey.get(`${e.start}:${e.key}`);
        if (row) {
          e.global = Math.max(e.global, Number(row.hits));
          e.learnedAt = learnedAt;
        }
      }
    } catch (err) {
      for (const { e, n } of batch) {
        e.inflight -= n;
        // Tried again at the next flush while the window lasts (dropped with it after).
        if (entries.get(e.key) === e) {
          e.pending += n;
          dirty.add(e);
        }
      }
      // One line per minute at most while the database is away.
      if (Date.now() - lastFlushError > 60_000) {
        lastFlushError = Date.now();
        console.error(`Writing rate-limit counts failed: ${(err as Error).message}`);
      }
    }
  };
  /** Runs a flush unless one is running (then waits for it). */
  const flush = () =>
    (flushing ??= flushOnce().finally(() => {
      flushing = null;
    }));

  const flusher = setInterval(() => void flush(), FLUSH_MS);
  flusher.unref();
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
    incr: Incr = (key, cb, timeWindow, max) => {
      incr(this.prefix + key, timeWindow, max, cb);
    };
    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string } }) {
      const info = routeOptions.routeInfo ?? {};
      return new PostgresStore(`${String(info.method ?? '')}${info.url ?? ''}:`);
    }
  }
  return {
    Store: PostgresStore,
    /** Writes the memory counts now (tests; close does it too). */
    flush: async () => {
      await flushing;
      await flush();
    },
    /** Stops the timers and writes what is still counted only in memory. */
    close: async () => {
      clearInterval(flusher);
      clearInterval(sweep);
      // A database that does not answer must not hold the shutdown: the counts are only counts.
      let timer: NodeJS.Timeout | undefined;
      const giveUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
      });
      await Promise.race([(flushing ?? Promise.resolve()).then(() => flush()), giveUp]);
      clearTimeout(timer);
    },
  };
}

/**
 * The rate-limit plugin's options for this database: on PostgreSQL (several instances possible)
 * the shared store, failing open if the database cannot count (a counter is not worth refusing
 * a reader for); on PGlite (one process) the plugin's own in-memory store.
 */
export function sharedRateLimits(database: Database): {
  options: Partial<RateLimitPluginOptions>;
  close(): Promise<void>;
} {
  // PGlite is one process: the plugin's own in-memory store.
  if (database.kind !== 'postgres') return { options: {}, close: async () => {} };
  const { Store, close } = postgresRateLimitStore(database.db);
  return {
    options: { store: Store as unknown as FastifyRateLimitStoreCtor, skipOnError: true },
    close,
  };
}
