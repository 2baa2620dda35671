import { sql } from 'drizzle-orm';
import { COMMUNITY } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden, invalid, notFound } from '../../errors.ts';
import type { CommunityImages } from './images.ts';
import { communityRepo } from './repo.ts';

/** Where an upload goes: the writer's drafts, one of their posts, or their profile. */
export type UploadTarget =
  { kind: 'draft' } | { kind: 'post'; postId: number } | { kind: 'profile'; userId: number };

/** Drafts not attached to a post within this long are dropped when the writer uploads again. */
const DRAFT_TTL = '1 day';
const tooMany = () =>
  invalid(
    `A post can have at most ${COMMUNITY.imagesPerPost} pictures. Remove one to add another.`,
  );

/** Community image uploads and removals, with who may make them. */
export function communityUploads(deps: {
  db: Db;
  images: CommunityImages;
  /** Drops cached lists that show a post's pictures. */
  dropFeeds: () => void;
}) {
  const { db, images } = deps;
  const repo = communityRepo(db);

  return {
    /** Who may change `{a}/{b}`: their own post or profile only (403), an existing post (404). */
    async authorize(viewer: Viewer, a: 'post' | 'profile', b: string): Promise<UploadTarget> {
      if (a === 'profile') {
        if (b === 'new' || Number(b) !== viewer.userId)
          throw forbidden('You can only change your own profile picture.');
        return { kind: 'profile', userId: viewer.userId };
      }
      if (b === 'new') return { kind: 'draft' };
      const postId = Number(b);
      const post = await repo.postState(postId);
      if (!post || post.status === 'removed')
        throw notFound('We could not find that post. It may have been removed.');
      if (Number(post.userId) !== viewer.userId)
        throw forbidden('You can only add pictures to your own posts.');
      return { kind: 'post', postId };
    },

    /** Stores an uploaded picture where `target` says; a 5th on one post is refused. */
    async upload(viewer: Viewer, target: UploadTarget, bytes: Buffer) {
      if (target.kind === 'profile') {
        const stored = await images.storeAvatar(bytes);
        await repo.setAvatar(viewer.userId, stored.version);
        deps.dropFeeds();
        return {
          image: {
            imageId: 0,
            ...images.avatar(stored.version)!,
            width: stored.width,
            height: stored.height,
          },
          postId: null,
        };
      }
      const postId = target.kind === 'post' ? target.postId : null;
      if (postId === null)
        await db.execute(sql`
          delete from community_images where user_id = ${viewer.userId} and post_id is null
            and created_at < now() - ${DRAFT_TTL}::interval`);
      // Counted before the work of re-encoding, and again in the transaction that adds it.
      if ((await repo.imageCount(viewer.userId, postId)) >= COMMUNITY.imagesPerPost)
        throw tooMany();
      const stored = await images.storePostImage(bytes);
      const imageId = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const r = communityRepo(tx);
        // One upload at a time per post (or per writer's drafts): the count cannot be raced past.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`community-images:${postId ?? `u${viewer.userId}`}`}))`,
        );
        const count = await r.imageCount(viewer.userId, postId);
        if (count >= COMMUNITY.imagesPerPost) throw tooMany();
        return r.insertImage({ userId: viewer.userId, postId, position: count, ...stored });
      });
      if (postId !== null) deps.dropFeeds();
      return {
        image: images.postImage({ id: imageId, ...stored }),
        postId,
      };
    },

    /** Removes a picture of one's post or drafts (`imageId`), or one's profile picture. */
    async remove(viewer: Viewer, target: UploadTarget, imageId?: number) {
      if (target.kind === 'profile') {
        await repo.setAvatar(viewer.userId, null);
        deps.dropFeeds();
        return { removed: true };
      }
      if (imageId === undefined) throw invalid('Say which picture to remove (imageId).', 'imageId');
      const postId = target.kind === 'post' ? target.postId : null;
      if (!(await repo.deleteImage(imageId, viewer.userId, postId)))
        throw notFound('That picture is not on this post.');
      if (postId !== null) deps.dropFeeds();
      return { removed: true };
    },
  };
}
export type CommunityUploads = ReturnType<typeof communityUploads>;
