import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { PreparingClient } from './prepared.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /**
   * The same database through connections of its own for the reading path (PostgreSQL; PGlite
   * has one connection and this is `db`): a reader whose state must be read does not wait for a
   * connection behind writers' transactions.
   */
  readDb: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: in-process LISTEN (notices arrive before the committing call returns). */
  listen?(channel: string, onNotice: (payload: string) => void): Promise<() => Promise<void>>;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/**
 * PGlite whose statements (and transactions) each start on a turn of the event loop of their
 * own, in the order they were asked for (decision record 55). PGlite runs on this thread and
 * hands over from one statement to the next inside the same turn, so under load one turn ran
 * every waiting request's statements back to back: sockets went unread and new connections
 * unaccepted for hundreds of milliseconds at a time, and a reader whose answer was in memory
 * waited behind strangers' writes.
 */
function takingTurns(client: PGlite): PGlite {
  // A turn each, handed out in order: calls asked for together would otherwise all wake on the
  // same turn and run back to back again. Only their starts are spaced; PGlite's own lock still
  // keeps a statement from running inside another caller's transaction.
  let lastTurn: Promise<void> = Promise.resolve();
  const inTurn =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const mine = lastTurn.then(() => nextTurn());
      lastTurn = mine;
      await mine;
      return run(...args);
    };
  // Bound to PGlite itself: its methods read private fields, which a Proxy as `this` lacks.
  const own = new Map<PropertyKey, unknown>([
    ['query', inTurn(client.query.bind(client))],
    ['exec', inTurn(client.exec.bind(client))],
    ['transaction', inTurn(client.transaction.bind(client))],
  ]);
  return new Proxy(client, {
    get(target, name) {
      let value = own.get(name);
      if (value === undefined) {
        value = Reflect.get(target, name, target);
        if (typeof value === 'function') own.set(name, (value = value.bind(target)));
      }
      return value;
    },
  });
}

/** Opens PostgreSQL when a URL is given, else PGlite in `dataDir` (or in memory), and migrates. */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  pgliteDir: string | null;
  /** PostgreSQL connections at most (config.databasePoolMax); 10 when not given. */
  poolMax?: number;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const max = opts.poolMax ?? 10;
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max, Client: PreparingClient });
    const readPool = new pg.Pool({
      connectionString: opts.databaseUrl,
      Client: PreparingClient,
      max: Math.max(2, Math.ceil(max / 4)),
    });
    // An idle connection ended by the server (restart, failover, admin) must not crash us:
    // the pool drops it and opens a new one when next needed.
    for (const p of [pool, readPool])
      p.on('error', (err) => console.error(`PostgreSQL closed an idle connection: ${err.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const readDb = drizzlePg(readPool, { schema }) as unknown as Db;
    // Two servers starting at once must not both migrate.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(727001)');
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727001)').catch(() => {});
      client.release();
    }
    return {
      db,
      readDb,
      kind: 'postgres',
      close: async () => {
        await Promise.all([pool.end(), readPool.end()]);
      },
    };
  }
  const client = await PGlite.create({
    ...(opts.pgliteDir ? { dataDir: opts.pgliteDir } : {}),
    extensions: { pg_trgm },
  });
  const db = drizzlePglite(takingTurns(client), { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  await db.execute(sql`select 1`);
  return {
    db,
    readDb: db,
    kind: 'pglite',
    close: () => client.close(),
    listen: (channel, onNotice) => client.listen(channel, onNotice),
  };
}
