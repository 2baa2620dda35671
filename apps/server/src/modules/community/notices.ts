import { sql } from 'drizzle-orm';
import { truncateGraphemes } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { communityRepo } from './repo.ts';

/** The job that turns one community event into notifications. */
export const COMMUNITY_NOTIFY_JOB = 'community.notify';

/** Something someone did that others hear of. */
export type CommunityEvent =
  /** A post (or share) went public: its mentions, and the writer of a shared post. */
  | { kind: 'post'; postId: number; actorId: number }
  | { kind: 'like'; postId: number; actorId: number }
  /** A comment went public: the post's writer and the people it mentions. */
  | { kind: 'comment'; postId: number; commentId: number; actorId: number }
  | { kind: 'follow'; followedId: number; actorId: number };

/**
 * Enqueues the event's notifications inside the caller's transaction: the change and its job
 * commit together or not at all. Moderation calls it with kind 'post' or 'comment' when it
 * approves something that was held (nothing is told while it waits).
 */
export async function enqueueNotices(tx: Db, queue: JobQueue, event: CommunityEvent) {
  const key = Object.values(event).join(':');
  await queue.send(
    COMMUNITY_NOTIFY_JOB,
    event,
    { singletonKey: `${COMMUNITY_NOTIFY_JOB}:${key}` },
    tx,
  );
}

/** A short plain quote of a text, for notifications and mention lists. */
export const excerptOf = (text: string) =>
  truncateGraphemes(text.replace(/\s+/g, ' ').trim(), 120, '…');

/**
 * Makes an event's notifications: once per event and person (the dedupe key), never to the
 * person who acted, and only for what others may see now (a post held or removed since tells
 * no one). Idempotent: a rerun inserts nothing new. Answers who was told, for tests.
 */
export async function deliverNotices(db: Db, event: CommunityEvent): Promise<number[]> {
  const repo = communityRepo(db);
  const told: number[] = [];
  const tell = async (
    userId: number,
    kind: 'like' | 'comment' | 'mention' | 'share' | 'follow',
    dedupeKey: string,
    about: { postId?: number; commentId?: number; excerpt?: string },
  ) => {
    if (userId === event.actorId || told.includes(userId)) return;
    told.push(userId);
    await db.execute(sql`
      insert into community_notifications
        (user_id, kind, actor_id, post_id, comment_id, excerpt, dedupe_key)
      values (${userId}, ${kind}, ${event.actorId}, ${about.postId ?? null},
        ${about.commentId ?? null}, ${excerptOf(about.excerpt ?? '')}, ${dedupeKey})
      on conflict (user_id, dedupe_key) do nothing`);
  };
  const visiblePost = async (postId: number) => {
    const [post] = await repo.posts([postId]);
    return post && post.status === 'approved' && !post.hidden ? post : undefined;
  };

  switch (event.kind) {
    case 'follow':
      await tell(event.followedId, 'follow', `follow:${event.actorId}`, {});
      break;
    case 'like': {
      const post = await visiblePost(event.postId);
      if (post)
        await tell(post.userId, 'like', `like:${post.id}:${event.actorId}`, {
          postId: post.id,
          excerpt: post.body,
        });
      break;
    }
    case 'post': {
      const post = await visiblePost(event.postId);
      if (!post) break;
      if (post.sharedPostId !== null) {
        const shared = (await repo.posts([post.sharedPostId]))[0];
        if (shared)
          await tell(shared.userId, 'share', `share:${post.id}`, {
            postId: post.id,
            excerpt: shared.body,
          });
      }
      for (const m of post.mentions)
        await tell(Number(m.userId), 'mention', `mention:p${post.id}`, {
          postId: post.id,
          excerpt: post.body,
        });
      break;
    }
    case 'comment': {
      const post = await visiblePost(event.postId);
      const comment = await repo.comment(event.commentId);
      if (!post || !comment || comment.status !== 'approved' || comment.hidden) break;
      const about = { postId: post.id, commentId: comment.id, excerpt: comment.body };
      await tell(post.userId, 'comment', `comment:${comment.id}`, about);
      for (const m of comment.mentions)
        await tell(Number(m.userId), 'mention', `mention:c${comment.id}`, about);
      break;
    }
  }
  return told;
}
