import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTurns, freshPostgres } from '../test/helpers.ts';
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

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL statements', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshPostgres(process.env.DATABASE_URL!);
    drop = fresh.drop;
    // One connection, so every statement below meets the same one.
    database = await openDatabase({ databaseUrl: fresh.url, pgliteDir: null, poolMax: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const prepared = async (text: string) =>
    (
      (await database.db.execute(
        sql`select count(*)::int as n from pg_prepared_statements where statement = ${text}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n;

  it('prepares a statement with parameters once per connection and answers it every time', async () => {
    const text = 'select $1::int + 1 as next';
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) {
      const { rows } = (await database.db.execute(
        sql`select ${i}::int + 1 as next`,
      )) as unknown as {
        rows: { next: number }[];
      };
      answers.push(rows[0]!.next);
    }
    expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await prepared(text)).toBe(1);
  });

  it('keeps statements without parameters on the simple protocol: several commands in one text', async () => {
    await database.db.execute(
      sql.raw('create temporary table t (n int); insert into t values (7)'),
    );
    const { rows } = (await database.db.execute(sql`select n from t`)) as unknown as {
      rows: { n: number }[];
    };
    expect(rows).toEqual([{ n: 7 }]);
  });

  it('answers again after a prepared statement failed on a value', async () => {
    const divide = (d: number) => database.db.execute(sql`select 10 / ${d}::int as q`);
    // 22012: division_by_zero, from PostgreSQL itself.
    await expect(divide(0)).rejects.toMatchObject({ cause: { code: '22012' } });
    const { rows } = (await divide(5)) as unknown as { rows: { q: number }[] };
    expect(rows).toEqual([{ q: 2 }]);
  });

  it('answers inside a transaction, and after it rolled back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select ${1}::int`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const { rows } = (await database.db.execute(sql`select ${2}::int as n`)) as unknown as {
      rows: { n: number }[];
    };
    expect(rows).toEqual([{ n: 2 }]);
  });
});
