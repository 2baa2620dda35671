import pg from 'pg';

/** The advisory lock instances take while they start (the migration lock is 727001). */
const STARTUP_LOCK = 727013;

/**
 * On PostgreSQL, waits until no other instance is starting and holds a session advisory lock on a
 * connection of its own until the returned release is called: instances started together (a
 * compose file, a rolling deploy) then create the queue's schema, the keys and the demo seed one
 * after another instead of racing (two pg-boss start-ups at once deadlock; two seeds would both
 * find an empty database). On PGlite (one process) there is nothing to wait for.
 */
export async function startupLock(databaseUrl: string | null): Promise<() => Promise<void>> {
  if (!databaseUrl) return async () => {};
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
    await client.end().catch(() => {});
  };
}
