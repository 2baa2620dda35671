import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { SqlExecutor } from './sql.ts';

/*
 * pg-boss 11 rewrote its schema and has no migration from pg-boss 10's (versions 21-24): its
 * release notes say to install the new one beside it and move the jobs over. On start, a v10
 * schema is renamed aside, pg-boss installs its own, and the jobs not yet done move across in
 * one transaction that also drops the old schema. A crash between the steps leaves the old
 * schema aside, and the next start moves its jobs then.
 */

/** Where a pg-boss 10 schema waits while its jobs move to the new one. */
const aside = (schema: string) => `${schema}_v10`;
/** pg-boss 10's schema versions; 11.0 was 25. */
const V10 = { from: 21, to: 24 };

const rowsOf = async (db: SqlExecutor, text: string) => (await db.executeSql(text)).rows;

/** Renames a pg-boss 10 schema out of the way (before pg-boss installs its own). */
export async function setAsideV10Schema(db: SqlExecutor, schema: string): Promise<void> {
  const [found] = await rowsOf(db, `SELECT to_regclass('${schema}.version') IS NOT NULL AS found`);
  if (!found?.found) return;
  const [row] = await rowsOf(db, `SELECT max(version) AS version FROM ${schema}.version`);
  const version = Number(row?.version);
  if (version > V10.to) return;
  if (!(version >= V10.from))
    throw new Error(`pg-boss schema version ${version} is older than pg-boss 10: not migrated`);
  await db.executeSql(`ALTER SCHEMA ${schema} RENAME TO ${aside(schema)}`);
}

/**
 * Moves the jobs of a set-aside pg-boss 10 schema that were not done (waiting, to retry, or
 * running when their server stopped) into pg-boss's schema, keeping their ids, data, retries,
 * start times and singleton slots, and drops the old schema with them. Jobs that were running
 * start again: handlers are idempotent.
 */
export async function carryOverV10Jobs(
  db: Db,
  schema: string,
  ensureQueue: (name: string) => Promise<void>,
): Promise<void> {
  const old = aside(schema);
  const exists = await db.execute(sql`select to_regnamespace(${old}) is not null as found`);
  if (!(exists as unknown as { rows: { found: boolean }[] }).rows[0]?.found) return;
  const names = (await db.execute(
    sql.raw(`SELECT DISTINCT name FROM ${old}.job WHERE state <= 'active'`),
  )) as unknown as { rows: { name: string }[] };
  // Each job needs its queue (a foreign key); made before, as queues are made (not undone).
  for (const { name } of names.rows) await ensureQueue(name);
  await db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(`
        INSERT INTO ${schema}.job (
          id, name, data, priority, state, retry_limit, retry_count, retry_delay, retry_backoff,
          expire_seconds, singleton_key, singleton_on, start_after, created_on, keep_until, policy
        )
        SELECT j.id, j.name, j.data, j.priority,
          (CASE WHEN j.state = 'active' THEN 'retry' ELSE j.state::text END)::${schema}.job_state,
          j.retry_limit, j.retry_count, j.retry_delay, j.retry_backoff,
          GREATEST(1, EXTRACT(epoch FROM j.expire_in))::int, j.singleton_key, j.singleton_on,
          CASE WHEN j.state = 'active' THEN now() ELSE j.start_after END,
          j.created_on, j.keep_until, q.policy
        FROM ${old}.job j JOIN ${schema}.queue q ON q.name = j.name
        WHERE j.state <= 'active'
        ON CONFLICT DO NOTHING`),
    );
    await tx.execute(sql.raw(`DROP SCHEMA ${old} CASCADE`));
  });
}
