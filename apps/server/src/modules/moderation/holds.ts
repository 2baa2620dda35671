import type { Db } from '../../db/client.ts';

/** What is about to be published: a post or a post comment, by whom. */
export interface HoldInput {
  userId: number;
  text: string;
  kind: 'post' | 'comment';
}

/**
 * Whether a new post or comment waits for review, and why; null publishes it as approved.
 * The community module calls this inside the transaction that stores the post (`db` is that
 * transaction).
 */
// moderation fills this (new accounts' first posts, the kept word list)
export async function holdFor(_db: Db, _input: HoldInput): Promise<null | { reason: string }> {
  return null;
}
