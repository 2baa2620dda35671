import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The channel on which instances tell each other that readers' views changed. */
const CHANNEL = 'kathamala_cache';
const RECONNECT_MS = 2_000;

/** Tells every other instance on the same PostgreSQL to drop what it keeps in memory. */
export interface CacheBus {
  /** Announces a change this instance made (after it committed). */
  publish(): void;
  close(): Promise<void>;
}

/**
 * LISTEN/NOTIFY on PostgreSQL: each instance listens on one connection of its own and drops
 * its response cache and rendered pages when another instance announces a change. With PGlite
 * there is one process, so nothing to tell.
 */
export async function startCacheBus(
  databaseUrl: string | null,
  onRemoteChange: () => void,
  log: (message: string) => void = (m) => console.error(m),
): Promise<CacheBus> {
  if (!databaseUrl) return { publish: () => {}, close: async () => {} };
  const self = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload !== self) onRemoteChange();
    });
    const lost = (why: string) => {
      if (closed || client !== c) return;
      client = null;
      log(`Cache bus: lost its PostgreSQL connection (${why}); reconnecting.`);
      // What changed while we were away is unknown: start from nothing.
      onRemoteChange();
      retry = setTimeout(() => void connect().catch(() => lost('reconnect failed')), RECONNECT_MS);
    };
    c.on('error', (e) => lost(e.message));
    c.on('end', () => lost('closed'));
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    if (closed) return void (await c.end().catch(() => {}));
    client = c;
  };
  await connect();

  return {
    publish() {
      // Fire and forget: a lost notice costs a stale answer for at most the cache's lifetime.
      client?.query('select pg_notify($1, $2)', [CHANNEL, self]).catch((e: Error) => {
        log(`Cache bus: could not announce a change (${e.message}).`);
      });
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
