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

interface Row {
  young: boolean | null;
  tat: string | number | null;
  now: string | number;
}

/**
 * Takes one post from the account's story-comment bucket (POSTING_PACE). Runs in the caller's
 * transaction, which holds the account's posting lock (commentsRepo's lockPoster): posts of one
 * account on every instance take turns, and a post that fails gives its token back. Answers null
 * when the post may go, else the seconds until it may.
 */
export const takePostingToken = (tx: Db, userId: number): Promise<number | null> =>
  takeToken(tx, `comment-pace:${userId}`, userId, POSTING_PACE);

/**
 * Takes one token from a bucket (its row in rate_limit_hits, the rate limits' shared table,
 * under `key`), as GCRA keeps a token bucket: the row holds one time, when the bucket is full
 * again (rate_limit_hits.expires_at, so the rate limits' sweep deletes a full bucket's row, and
 * a missing row is a full bucket). A token may go while that time is at most (burst - 1)
 * intervals ahead; each token moves it one interval on. The caller's transaction must hold a
 * lock that keeps the account's takes in line. Answers null, or the seconds until a token.
 */
export async function takeToken(
  tx: Db,
  key: string,
  userId: number,
  pace: Pace,
): Promise<number | null> {
  const res = (await tx.execute(sql`
    select
      (select created_at > clock_timestamp() - make_interval(hours => ${pace.youngHours})
         from users where id = ${userId}) as young,
      (select (extract(epoch from expires_at) * 1000)::bigint from rate_limit_hits
         where key = ${key} and window_start = 0) as tat,
      (extract(epoch from clock_timestamp()) * 1000)::bigint as now`)) as unknown as {
    rows: Row[];
  };
  const row = res.rows[0]!;
  const bucket = row.young === false ? pace.established : pace.young;
  const interval = 3_600_000 / bucket.perHour;
  const now = Number(row.now);
  const full = Math.max(now, row.tat === null ? now : Number(row.tat));
  const ahead = full - now - interval * (bucket.burst - 1);
  if (ahead > 0) return Math.max(1, Math.ceil(ahead / 1000));
  await tx.execute(sql`
    insert into rate_limit_hits as r (key, window_start, hits, expires_at)
    values (${key}, 0, 1, to_timestamp(${full + interval} / 1000.0))
    on conflict (key, window_start) do update
      set expires_at = excluded.expires_at, hits = r.hits + 1`);
  return null;
}
