import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The one query the health check runs. */
export const healthRepo = (db: Db) => ({
  /** Asks the database for the cheapest possible answer. */
  async ping(): Promise<void> {
    await db.execute(sql`select 1`);
  },
});

export type HealthRepo = ReturnType<typeof healthRepo>;
