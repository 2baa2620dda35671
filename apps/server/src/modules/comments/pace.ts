import { sql } from 'drizzle-orm';
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

/**
 * Takes one post from the account's story-comment bucket (POSTING_PACE), in the caller's
 * transaction: the bucket's row stays locked to its end, so posts of one account on every
 * instance take turns, and a post that fails gives its token back. Answers null when the post
 * may go, else the seconds until it may.
 */
export const takePostingToken = (tx: Db, userId: number): Promise<number | null> =>
  takeToken(tx, `comment-pace:${userId}`, userId, POSTING_PACE);

/**
 * Takes one token from a bucket (its row in rate_limit_hits, the rate limits' shared table,
 * under `key`), as GCRA keeps a token bucket: the row holds one time, when the bucket is full
 * again (rate_limit_hits.expires_at, so the rate limits' sweep deletes a full bucket's row, and
 * a missing row is a full bucket). A token may go while that time is at most (burst - 1)
 * intervals ahead; each token moves it one interval on. One statement: the upsert's row lock
 * keeps the account's takes in line. Answers null, or the seconds until a token.
 */
export async function takeToken(
  tx: Db,
  key: string,
  userId: number,
  pace: Pace,
): Promise<number | null> {
  const { established: old, young } = pace;
  const res = (await tx.execute(sql`
    with u as (
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
      returning 1)
    select exists (select 1 from took) as took,
      (select extract(epoch from greatest(r.expires_at, b.now) - b.now - b.iv * (b.burst - 1))
        from rate_limit_hits r, b where r.key = ${key} and r.window_start = 0)::float8 as ahead`)) as unknown as {
    rows: { took: boolean; ahead: number | string | null }[];
  };
  const row = res.rows[0]!;
  if (row.took) return null;
  // The row as this statement's snapshot saw it: a take that committed meanwhile is not in it.
  return Math.max(1, Math.ceil(Number(row.ahead ?? 0)));
}
