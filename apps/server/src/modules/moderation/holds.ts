import { sql } from 'drizzle-orm';
import { REVIEW } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { checkPace } from './pace.ts';
import { keptWords } from './repo.ts';
import { firstListedWord } from './words.ts';

/** What is about to be published: a post or a post comment, by whom. */
export interface HoldInput {
  userId: number;
  text: string;
  kind: 'post' | 'comment';
}

/** What its writer reads while it waits (the post's statusReason). */
export const HELD_NEW_ACCOUNT =
  'Posts of new accounts wait for an editor before others see them. This one shows once it is approved.';
export const HELD_WORD = {
  post: 'This post waits for an editor before others see it.',
  comment: 'This comment waits for an editor before others see it.',
} as const;

/**
 * Whether a new post or comment waits for review, and why; null publishes it as approved.
 * The community module calls this inside the transaction that stores the post (`db` is that
 * transaction). It also takes the account's pace (pace.ts): past it, a 429 with the wait, and
 * the transaction stores nothing. A held post or comment stored as pending opens its case in
 * the queue (the review_held trigger of 0019_moderation.sql).
 */
export async function holdFor(db: Db, input: HoldInput): Promise<null | { reason: string }> {
  await checkPace(db, input.userId, input.kind);
  if (firstListedWord(input.text, await keptWords(db))) return { reason: HELD_WORD[input.kind] };
  if (input.kind === 'post' && (await isNewWithFewPosts(db, input.userId)))
    return { reason: HELD_NEW_ACCOUNT };
  return null;
}

/**
 * Whether an edited post or comment goes back to review: the kept words only (an edit takes no
 * pace and is no new post). The caller sets it pending with the reason; the queue opens.
 */
export async function holdOnEdit(
  db: Db,
  input: Omit<HoldInput, 'userId'>,
): Promise<null | { reason: string }> {
  return firstListedWord(input.text, await keptWords(db))
    ? { reason: HELD_WORD[input.kind] }
    : null;
}

/** An account younger than a day with fewer than REVIEW.heldFirstPosts posts so far. */
async function isNewWithFewPosts(db: Db, userId: number): Promise<boolean> {
  const { rows } = (await db.execute(sql`
    select u.created_at > now() - interval '1 day'
      and (select count(*) from (select 1 from community_posts p where p.user_id = u.id
             limit ${REVIEW.heldFirstPosts}) first) < ${REVIEW.heldFirstPosts} as held
    from users u where u.id = ${userId}`)) as unknown as { rows: { held: boolean }[] };
  return rows[0]?.held === true;
}
