import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * How fast one account may post comments and replies: a token bucket of `burst` posts that
 * refills at `perHour`. A conversation (a few replies a minute, twenty in a lively one) never
 * meets it; a script pasting the same line does, after the burst. Accounts younger than
 * `youngHours` get a smaller bucket: a new account made to spam gets little out of it.
 */
export const POSTING_PACE = {
  established: { burst: 20, perHour: 200 },
  young: { burst: 6, perHour: 60 },
  youngHours: 24,
} as const;

/** A token bucket's size and refill, for established accounts and young ones. */
export interface Pace {
  established: { burst: number; perHour: number };
  young: { burst: number; perHour: number };
  youngHours: number;
}

/** The parts of a statement that takes a token: see paceParts. */
export interface PaceParts {
  /** CTEs `u`, `b` and `took` (a row when the token was taken), to follow `with`. */
  ctes: SQL;
  /** True when the token was taken. */
  took: SQL;
  /** Seconds until a token, as the statement's snapshot saw the bucket (when none was taken). */
  ahead: SQL;
}

/**
 * Takes one token from a bucket (its row in rate_limit_hits, the rate limits' shared table,
 * under `key`), as GCRA keeps a token bucket: the row holds one time, when the bucket is full
 * again (rate_limit_hits.expires_at, so the rate limits' sweep deletes a full bucket's row, and
 * a missing row is a full bucket). A token may go while that time is at most (burst - 1)
 * intervals ahead; each token moves it one interval on. As parts of one statement: the upsert's
 * row lock keeps the account's takes in line, and a write the same statement gates on `took`
 * commits or fails with its token.
 */
export function paceParts(key: string, userId: number, pace: Pace): PaceParts {
  const { established: old, young } = pace;
  return {
    ctes: sql`u as (
      select coalesce((select created_at > clock_timestamp() - make_interval(hours => ${pace.youngHours})
        from users where id = ${userId}), true) as young),
    b as (
      select clock_timestamp() as now,
        make_interval(secs => case when u.young then ${3600 / young.perHour}::float8
          else ${3600 / old.perHour}::float8 end) as iv,
        case when u.young then ${young.burst}::int else ${old.burst}::int end as burst
      from u),
    took as (
      insert into rate_limit_hits as r (key, window_start, hits, expires_at)
      select ${key}, 0, 1, b.now + b.iv from b
      on conflict (key, window_start) do update
        set expires_at = greatest(r.expires_at, (select now from b)) + (select iv from b),
          hits = r.hits + 1
        where greatest(r.expires_at, (select now from b))
          <= (select now + iv * (burst - 1) from b)
      returning 1)`,
    took: sql`exists (select 1 from took)`,
    ahead: sql`(select extract(epoch from greatest(r.expires_at, b.now) - b.now - b.iv * (b.burst - 1))
        from rate_limit_hits r, b where r.key = ${key} and r.window_start = 0)::float8`,
  };
}

/** The parts of a statement that takes a post from the account's story-comment bucket. */
export const postingPace = (userId: number): PaceParts =>
  paceParts(`comment-pace:${userId}`, userId, POSTING_PACE);

/**
 * What a statement made with paceParts answered: null when the token was taken, else the
 * seconds until one (the row as its snapshot saw it: a take that committed meanwhile is not in
 * it).
 */
export const waitOf = (row: { took: boolean; ahead: number | string | null }): number | null =>
  row.took ? null : Math.max(1, Math.ceil(Number(row.ahead ?? 0)));

/** Takes one token from a bucket in one statement (paceParts); answers null, or the seconds until one. */
export async function takeToken(
  tx: Db,
  key: string,
  userId: number,
  pace: Pace,
): Promise<number | null> {
  const p = paceParts(key, userId, pace);
  const res = (await tx.execute(
    sql`with ${p.ctes} select ${p.took} as took, ${p.ahead} as ahead`,
  )) as unknown as { rows: { took: boolean; ahead: number | string | null }[] };
  return waitOf(res.rows[0]!);
}
