import { sql } from 'drizzle-orm';
import { ResultCode } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { takeToken, type Pace } from '../comments/pace.ts';

/**
 * How fast one account may post, comment and flag in the community: the story comments' token
 * bucket (comments/pace.ts), one bucket per account and kind. A lively conversation never meets
 * it; a script does after the burst. Accounts younger than a day get far less.
 */
export const COMMUNITY_PACE = {
  post: {
    established: { burst: 10, perHour: 30 },
    young: { burst: 5, perHour: 10 },
    youngHours: 24,
  },
  comment: {
    established: { burst: 20, perHour: 120 },
    young: { burst: 6, perHour: 30 },
    youngHours: 24,
  },
  flag: {
    established: { burst: 10, perHour: 30 },
    young: { burst: 3, perHour: 10 },
    youngHours: 24,
  },
} as const satisfies Record<string, Pace>;
export type PacedAction = keyof typeof COMMUNITY_PACE;

/** Keeps one account's takes in line across instances (comments' lock is 727_100). */
const PACE_LOCK = 727_119;

const DOING: Record<PacedAction, string> = {
  post: 'posting',
  comment: 'commenting',
  flag: 'flagging',
};

/** "42 seconds", "7 minutes": the wait as a person reads it. */
export const waitWords = (seconds: number) => {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
};

/**
 * Takes one token of the account's bucket for `action`, or throws 429 with a sentence naming
 * the wait. Runs inside the caller's transaction when given one (a savepoint otherwise opens
 * one), so the lock holds until the post, comment or flag commits, and a failure gives it back.
 */
export async function checkPace(db: Db, userId: number, action: PacedAction): Promise<void> {
  const wait = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(${PACE_LOCK}, ${userId})`);
    return takeToken(tx, `community-${action}:${userId}`, userId, COMMUNITY_PACE[action]);
  });
  if (wait !== null)
    throw new AppError(
      429,
      ResultCode.tooManyRequests,
      `You are ${DOING[action]} quickly. Please wait ${waitWords(wait)} before ${DOING[action]} again.`,
    );
}
