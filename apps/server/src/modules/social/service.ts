import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { invalid, notFound } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { enqueueNotices } from '../community/notices.ts';
import { socialRepo } from './repo.ts';

/** Following users (authors are users: a reader follows an author through the author's account). */
export function socialService(db: Db, queue: JobQueue) {
  const repo = socialRepo(db);

  return {
    /**
     * Follows the user or stops following, as `wanted` says (asking twice changes nothing);
     * without it, toggles (older clients). Answers the new state.
     */
    async setFollow(viewer: Viewer, followedId: number, wanted?: boolean) {
      if (followedId === viewer.userId) throw invalid('You cannot follow yourself.');
      if (!(await repo.userExists(followedId))) throw notFound('We could not find that reader.');
      const following = await db.transaction(async (t) => {
        const r = socialRepo(t as unknown as Db);
        if (wanted !== true && (await r.unfollow(viewer.userId, followedId))) return false;
        if (wanted === false) return false;
        // A new follower is told to the followed (community notifications), once per follower.
        if (await r.follow(viewer.userId, followedId))
          await enqueueNotices(t as unknown as Db, queue, {
            kind: 'follow',
            followedId,
            actorId: viewer.userId,
          });
        return true;
      });
      return { following, followers: await repo.followers(followedId) };
    },

    /** Whom the viewer follows (for /account). */
    async following(viewer: Viewer) {
      const list = await repo.following(viewer.userId);
      return {
        list: list.map((f) => ({
          userId: Number(f.userId),
          username: f.username,
          authorId: f.authorId === null ? null : Number(f.authorId),
          authorName: f.authorName,
        })),
      };
    },

    /** The author page's Follow button: the author's account, its followers, and the viewer's state. */
    async authorFollow(viewer: Viewer | null, authorId: number) {
      const author = await repo.authorUser(authorId);
      if (!author) throw notFound('We could not find that author.');
      const userId = author.userId === null ? null : Number(author.userId);
      if (userId === null) return { userId, following: false, followers: 0 };
      return {
        userId,
        following: viewer ? await repo.isFollowing(viewer.userId, userId) : false,
        followers: await repo.followers(userId),
      };
    },
  };
}
export type SocialService = ReturnType<typeof socialService>;
