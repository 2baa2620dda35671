import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CACHE_CHANNEL, parseChange, type Change } from '../cache/changes.ts';
import type { Database } from '../db/client.ts';

const RECONNECT_MS = 2_000;

/** Carries changes between the database, this instance's caches and the other instances. */
export interface CacheBus {
  /** Announces a change of public lists and pages this instance made (after it committed). */
  publishPublic(): void;
  /**
   * False while the notices may be missed (PostgreSQL connection lost): caches then read
   * through instead of keeping what they cannot hear about.
   */
  live(): boolean;
  /**
   * Resolves once every notice committed before the call has reached this instance: a request
   * that wrote waits for it before answering, so its own next request finds the caches dropped.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** How long a request waits for its own notice before answering anyway. */
const SYNC_TIMEOUT_MS = 1_000;

/**
 * LISTEN on `kathamala_cache`: the database's triggers announce every committed change of a
 * session, story, episode, subscription or reader's own state (migration 0013), and instances
 * announce their public-page changes. On PostgreSQL each instance listens on one connection of
 * its own; on PGlite (one process) the database calls us in-process.
 */
export async function startCacheBus(
  database: Pick<Database, 'listen'>,
  databaseUrl: string | null,
  onChange: (change: Change) => void,
  log: (message: string) => void = (m) => console.error(m),
): Promise<CacheBus> {
  const self = randomUUID();
  const waiting = new Map<string, () => void>();
  const hear = (payload: string) => {
    // Our own public announcement: already applied when we made it.
    if (payload === `public:${self}`) return;
    if (payload.startsWith('sync:')) return void waiting.get(payload)?.();
    const change = parseChange(payload);
    if (change) onChange(change);
  };

  if (!databaseUrl) {
    const unlisten = database.listen ? await database.listen(CACHE_CHANNEL, hear) : null;
    return {
      publishPublic: () => {},
      live: () => unlisten !== null,
      // PGlite calls the listener before the committing statement returns.
      sync: async () => {},
      close: async () => void (await unlisten?.().catch(() => {})),
    };
  }

  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  /** The sync notice not yet sent, which every caller until it goes joins; one is sent at a time. */
  let pending: { payload: string; heard: Promise<void>; done: () => void } | null = null;
  let sending = false;

  const nextNotice = () => {
    const payload = `sync:${self}:${randomUUID()}`;
    let done = () => {};
    const heard = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), SYNC_TIMEOUT_MS);
      done = () => {
        clearTimeout(timer);
        waiting.delete(payload);
        resolve();
      };
    });
    waiting.set(payload, done);
    setImmediate(send);
    return { payload, heard, done };
  };
  const send = () => {
    const c = client;
    const notice = pending;
    if (sending || !notice) return;
    pending = null;
    if (!c) return notice.done();
    sending = true;
    c.query('select pg_notify($1, $2)', [CACHE_CHANNEL, notice.payload])
      // The connection is going: `lost` drops everything anyway.
      .catch(() => notice.done())
      .finally(() => {
        sending = false;
        send();
      });
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (n) => {
      if (n.channel === CACHE_CHANNEL && n.payload !== undefined) hear(n.payload);
    });
    const lost = (why: string) => {
      if (closed || client !== c) return;
      client = null;
      log(`Cache bus: lost its PostgreSQL connection (${why}); reconnecting.`);
      // What changes while we are away is unknown: start from nothing, read through until back.
      onChange({ kind: 'all' });
      retry = setTimeout(() => void connect().catch(() => lost('reconnect failed')), RECONNECT_MS);
    };
    c.on('error', (e) => lost(e.message));
    c.on('end', () => lost('closed'));
    await c.connect();
    await c.query(`LISTEN ${CACHE_CHANNEL}`);
    if (closed) return void (await c.end().catch(() => {}));
    client = c;
    // Changes made between losing the old connection and listening on this one went unheard.
    onChange({ kind: 'all' });
  };
  await connect();

  return {
    publishPublic() {
      // Fire and forget: a lost notice costs a stale list or page for at most its cache lifetime.
      client
        ?.query('select pg_notify($1, $2)', [CACHE_CHANNEL, `public:${self}`])
        .catch((e: Error) => {
          log(`Cache bus: could not announce a change (${e.message}).`);
        });
    },
    live: () => client !== null,
    sync() {
      if (!client) return Promise.resolve();
      // Notices reach a listener in commit order: hearing ours means every change committed
      // before it came. A caller's changes committed before it called, so before the notice it
      // joins: one round trip serves a whole burst of writes.
      return (pending ??= nextNotice()).heard;
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
