import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTurns } from '../test/helpers.ts';
import { openDatabase, type Database } from './client.ts';

// PGlite runs in this process: the test is about it alone (PostgreSQL answers over a socket,
// which lets the event loop turn anyway).
describe.skipIf(Boolean(process.env.DATABASE_URL))('PGlite and the event loop', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: null });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('lets the event loop turn before each statement, so sockets are read between them', async () => {
    const turns = countTurns();
    const seen: number[] = [];
    try {
      // Twenty statements queued at once, as twenty requests' would be.
      await Promise.all(
        Array.from({ length: 20 }, () =>
          database.db.execute(sql`select 1`).then(() => seen.push(turns.now())),
        ),
      );
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      });
      seen.push(turns.now());
    } finally {
      turns.stop();
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
  });
});
