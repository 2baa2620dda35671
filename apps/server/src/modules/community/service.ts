import {
  COMMUNITY,
  MAX_MENTIONS,
  coverSrcSet,
  coverUrl,
  looksSinhala,
  resolveMentions,
  toStored,
  type CommunityMe,
  type CommunityProfile,
  type Post,
  type PostComment,
  type PostStatus,
  type Role,
  type SharedPost,
  type SharedStory,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { forbidden, invalid, notFound } from '../../errors.ts';
import { holdFor, holdOnEdit } from '../moderation/holds.ts';
import { recordAudit } from './audit.ts';
import type { CommunityImages } from './images.ts';
import { communityRepo, type CommentRow, type PostRow } from './repo.ts';
import { isEditor, roleOf } from './roles.ts';
import { enqueueNotices } from './notices.ts';

/** Followers and thread people considered when resolving a mention. */
const CANDIDATES = 200;
/** One-word names looked up one by one when no candidate has them. */
const NAME_LOOKUPS = 3;
/** Followers sent with comments for @mention suggestions. */
const SUGGESTIONS = 50;

const NOT_FOUND_POST = 'We could not find that post. It may have been removed.';

/** A post's or comment's language for the page's lang attribute. */
const langOf = (text: string): 'si' | 'en' => (looksSinhala(text) ? 'si' : 'en');
const iso = (d: Date | string) => new Date(d).toISOString();
/** Text as stored: NFC (zero-width joiners kept), trimmed, line ends as \n. */
const cleanText = (text: string) => toStored(text).replace(/\r\n?/g, '\n').trim();
/** Characters as a reader counts them (code points; a ZWJ counts too, as it is kept). */
const lengthOf = (text: string) => [...text].length;

export interface CommunityDeps {
  db: Db;
  queue: JobQueue;
  images: CommunityImages;
  imagesHost: string;
  /** Drops the cached public lists of posts (a post appeared, went, or changed). */
  dropFeeds: () => void;
}

/** Posts, feeds, likes, shares, comments, profiles and roles of the community area. */
export function communityService(deps: CommunityDeps) {
  const { db, queue, images } = deps;
  const repo = communityRepo(db);
  const inTx = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => work(tx as unknown as Db));

  /* Answers. */

  const author = (r: Pick<PostRow, 'userId' | 'username' | 'role' | 'avatarVersion'>) => ({
    userId: Number(r.userId),
    username: r.username,
    avatar: images.avatar(r.avatarVersion),
    role: r.role,
  });

  const storyOf = (s: {
    storyId: number;
    title: string;
    language: 'sinhala' | 'english';
  }): SharedStory => ({
    storyId: Number(s.storyId),
    title: s.title,
    cover: coverUrl(deps.imagesHost, Number(s.storyId)),
    coverSrcset: coverSrcSet(deps.imagesHost, Number(s.storyId)),
    lang: s.language,
  });

  /** Whether `viewer` may see the post: others see approved, unhidden posts; writers their own. */
  const canSee = (
    p: { userId: number; status: PostStatus; hidden: boolean },
    viewer: { userId: number; role: Role } | null,
  ) =>
    (p.status === 'approved' && !p.hidden) ||
    (viewer !== null && (p.userId === viewer.userId || isEditor(viewer.role)));

  const fields = (r: PostRow, liked: boolean, ownView: boolean): SharedPost => ({
    postId: r.id,
    author: author(r),
    text: r.body,
    lang: r.lang,
    images: r.images.map((i) => images.postImage(i)),
    mentions: r.mentions.map((m) => ({ userId: Number(m.userId), username: m.username })),
    createdAt: iso(r.createdAt),
    editedAt: r.editedAt ? iso(r.editedAt) : null,
    status: r.status,
    // Why it waits or went is its writer's (and editors') to read.
    statusReason: ownView ? r.statusReason : null,
    likes: Number(r.likes),
    comments: Number(r.comments),
    shares: Number(r.shares),
    liked,
    pinned: r.pinned,
  });

  /**
   * Posts by id as answers show them, in the order given: what the viewer may not see is left
   * out; shared posts and stories are filled in (one level). `liked` null: leave every like
   * false (answers kept for everyone).
   */
  const hydrate = async (
    postIds: readonly number[],
    viewer: { userId: number; role: Role } | null,
    withLikes: boolean,
  ): Promise<Post[]> => {
    // The viewer's likes come with the posts (one round trip fewer per page).
    const likesOf = viewer && withLikes ? viewer.userId : null;
    const found = await repo.posts(postIds, likesOf);
    const byId = new Map(found.map((p) => [p.id, p]));
    const sharedIds = [...new Set(found.flatMap((p) => (p.sharedPostId ? [p.sharedPostId] : [])))];
    const storyIds = [...new Set(found.flatMap((p) => (p.sharedStoryId ? [p.sharedStoryId] : [])))];
    const [sharedRows, stories] = await Promise.all([
      repo.posts(sharedIds, likesOf),
      repo.stories(storyIds),
    ]);
    const sharedById = new Map(sharedRows.map((p) => [p.id, p]));
    const storiesById = new Map(stories.map((s) => [Number(s.storyId), s]));
    const liked = new Set([...found, ...sharedRows].filter((p) => p.liked).map((p) => p.id));
    const out: Post[] = [];
    for (const id of postIds) {
      const r = byId.get(id);
      if (!r || !canSee(r, viewer)) continue;
      const own = viewer !== null && (r.userId === viewer.userId || isEditor(viewer.role));
      let shared: Post['shared'] = null;
      if (r.sharedPostId !== null) {
        const s = sharedById.get(r.sharedPostId);
        shared = {
          kind: 'post',
          post: s && canSee(s, viewer) ? fields(s, liked.has(s.id), false) : null,
        };
      } else if (r.sharedStoryId !== null) {
        const s = storiesById.get(r.sharedStoryId);
        shared = { kind: 'story', story: s ? storyOf(s) : null };
      }
      out.push({ ...fields(r, liked.has(r.id), own), shared });
    }
    return out;
  };

  /** A page of ids read one longer than the page, as {ids, hasNext}. */
  const paged = async (
    page: number,
    read: (limit: number, offset: number) => Promise<number[]>,
  ) => {
    const size = COMMUNITY.pageSize;
    const ids = await read(size + 1, (page - 1) * size);
    return { ids: ids.slice(0, size), hasNext: ids.length > size };
  };

  const withRole = async (viewer: Viewer | null) =>
    viewer ? { userId: viewer.userId, role: await roleOf(db, viewer.userId) } : null;

  /* Mentions. */

  /**
   * Who the text mentions: among the writer's followers and the thread's people the longest
   * name after each '@', else a user with exactly that one-word name (as story comments do).
   */
  const mentionsIn = async (tx: Db, text: string, writer: number, postId: number | null) => {
    const r = communityRepo(tx);
    const candidates = [
      ...(postId ? await r.threadPeople(postId, CANDIDATES) : []),
      ...(await r.followersOf(writer, CANDIDATES)),
    ].map((c) => ({ userId: Number(c.userId), username: c.username }));
    const found = resolveMentions(text, candidates, writer);
    const ids = [...found.userIds];
    for (const word of found.unresolved.slice(0, NAME_LOOKUPS)) {
      if (ids.length >= MAX_MENTIONS) break;
      const named = await r.userNamed(word);
      if (named && Number(named.userId) !== writer) ids.push(Number(named.userId));
    }
    return [...new Set(ids)].slice(0, MAX_MENTIONS);
  };

  /* Writing posts. */

  /** Checks a post's text: NFC, ZWJ kept, at most 5,000 characters; empty only with images. */
  const postText = (raw: string, hasImages: boolean) => {
    const text = cleanText(raw);
    if (!text && !hasImages)
      throw invalid('Write something or add a picture before posting.', 'text');
    const n = lengthOf(text);
    if (n > COMMUNITY.postChars)
      throw invalid(
        `A post can be at most ${COMMUNITY.postChars.toLocaleString('en')} characters; this one has ${n.toLocaleString('en')}.`,
        'text',
      );
    return text;
  };

  /** The writer's images by id, checked: theirs, at most 4, drafts or already on `postId`. */
  const ownImages = async (
    tx: Db,
    userId: number,
    imageIds: readonly number[],
    postId: number | null,
  ) => {
    const unique = [...new Set(imageIds)];
    if (unique.length > COMMUNITY.imagesPerPost)
      throw invalid(`A post can have at most ${COMMUNITY.imagesPerPost} pictures.`, 'images');
    const owned = await communityRepo(tx).imagesOwned(userId, unique);
    const usable = new Set(
      owned
        .filter((i) => i.postId === null || Number(i.postId) === postId)
        .map((i) => Number(i.id)),
    );
    const missing = unique.find((id) => !usable.has(id));
    if (missing !== undefined)
      throw invalid(
        `Picture ${missing} is not one of your uploads waiting for a post. Upload it again.`,
        'images',
      );
    return unique;
  };

  /** Whether a post or comment waits for review: the moderation seam. */
  const statusFor = async (tx: Db, userId: number, text: string, kind: 'post' | 'comment') => {
    const held = await holdFor(tx, { userId, text, kind });
    return held
      ? { status: 'pending' as const, statusReason: held.reason }
      : { status: 'approved' as const, statusReason: null };
  };

  const onePost = async (postId: number, viewer: { userId: number; role: Role } | null) => {
    const [post] = await hydrate([postId], viewer, true);
    if (!post) throw notFound(NOT_FOUND_POST);
    return post;
  };

  return {
    /** The caller's own community profile with their role. */
    async me(viewer: Viewer): Promise<CommunityMe> {
      const r = await repo.me(viewer.userId);
      if (!r) throw notFound('We could not find your account.');
      return {
        userId: Number(r.userId),
        username: r.username,
        bio: r.bio ?? '',
        avatar: images.avatar(r.avatarVersion),
        role: r.role,
      };
    },

    /** A person's public profile with counts and whether the viewer follows them. */
    async profile(userId: number, viewer: Viewer | null): Promise<CommunityProfile> {
      const r = await repo.profile(userId, viewer?.userId ?? null);
      if (!r) throw notFound('We could not find that reader.');
      return {
        userId: Number(r.userId),
        username: r.username,
        bio: r.bio ?? '',
        avatar: images.avatar(r.avatarVersion),
        role: r.role,
        since: iso(r.since),
        authorId: r.authorId === null ? null : Number(r.authorId),
        posts: Number(r.posts),
        followers: Number(r.followers),
        following: Number(r.following),
        followed: Boolean(r.followed),
      };
    },

    /** Sets one's own bio. */
    async setBio(viewer: Viewer, raw: string) {
      const bio = cleanText(raw);
      if (lengthOf(bio) > COMMUNITY.bioChars)
        throw invalid(`A bio can be at most ${COMMUNITY.bioChars} characters.`, 'bio');
      await repo.setBio(viewer.userId, bio);
      return this.profile(viewer.userId, viewer);
    },

    /** Grants or removes a role, audited (see setRole below). */
    setRole: (actorId: number | null, userId: number, wanted: Role, reason?: string | null) =>
      setRole(db, actorId, userId, wanted, reason ?? null),

    /** Creates a post (text and draft images); held posts wait as 'pending'. */
    async createPost(viewer: Viewer, body: { text: string; images?: number[] }) {
      const imageIds = body.images ?? [];
      const text = postText(body.text, imageIds.length > 0);
      const postId = await inTx(async (tx) => {
        const r = communityRepo(tx);
        const attach = await ownImages(tx, viewer.userId, imageIds, null);
        const state = await statusFor(tx, viewer.userId, text, 'post');
        const id = await r.insertPost({
          userId: viewer.userId,
          body: text,
          lang: langOf(text),
          ...state,
        });
        await r.setPostImages(id, attach);
        const mentioned = await mentionsIn(tx, text, viewer.userId, null);
        await r.insertMentions(id, null, mentioned);
        if (state.status === 'approved')
          await enqueueNotices(tx, queue, { kind: 'post', postId: id, actorId: viewer.userId });
        return id;
      });
      deps.dropFeeds();
      return onePost(postId, await withRole(viewer));
    },

    /** Edits one's own post's text and images; 403 for anyone else's. */
    async editPost(viewer: Viewer, body: { post_id: number; text: string; images?: number[] }) {
      await inTx(async (tx) => {
        const r = communityRepo(tx);
        const post = await r.postForUpdate(body.post_id);
        if (!post || post.status === 'removed') throw notFound(NOT_FOUND_POST);
        if (Number(post.userId) !== viewer.userId)
          throw forbidden('You can only edit your own posts.');
        const imageIds = body.images ?? (await r.imagesOf(body.post_id)).map((i) => Number(i.id));
        const text = postText(body.text, imageIds.length > 0);
        const attach = await ownImages(tx, viewer.userId, imageIds, body.post_id);
        await r.editPost(body.post_id, text, langOf(text));
        // An edit that brings in a kept word goes back to review (moderation's rule).
        const held = await holdOnEdit(tx, { text, kind: 'post' });
        if (held) await r.holdPost(body.post_id, held.reason);
        await r.setPostImages(body.post_id, attach);
        await r.clearPostMentions(body.post_id);
        await r.insertMentions(body.post_id, null, await mentionsIn(tx, text, viewer.userId, null));
      });
      deps.dropFeeds();
      return onePost(body.post_id, await withRole(viewer));
    },

    /** Posts by id as `viewer` may see them, with their likes, in the order given. */
    postsFor: async (postIds: number[], viewer: Viewer | null) =>
      hydrate(postIds, await withRole(viewer), true),

    /** One post as the viewer may see it (404 otherwise), with their like. */
    post: async (postId: number, viewer: Viewer | null) => onePost(postId, await withRole(viewer)),

    /**
     * Removes a post: its writer their own; an editor anyone's, with a reason kept in the audit
     * log. Others get 403.
     */
    async removePost(viewer: Viewer, postId: number, reason?: string) {
      const role = await roleOf(db, viewer.userId);
      await inTx(async (tx) => {
        const r = communityRepo(tx);
        const post = await r.postForUpdate(postId);
        if (!post || post.status === 'removed') throw notFound(NOT_FOUND_POST);
        const own = Number(post.userId) === viewer.userId;
        if (!own && !isEditor(role)) throw forbidden('You can only remove your own posts.');
        const why = reason ? cleanText(reason) : '';
        if (!own && !why)
          throw invalid('Say why this post is removed: its writer is told the reason.', 'reason');
        if (lengthOf(why) > COMMUNITY.reasonChars)
          throw invalid(`A reason can be at most ${COMMUNITY.reasonChars} characters.`, 'reason');
        await r.removePost(postId, own ? null : why);
        if (!own)
          await recordAudit(tx, {
            actorId: viewer.userId,
            action: 'post.remove',
            targetKind: 'post',
            targetId: postId,
            reason: why,
            detail: { writer: Number(post.userId) },
          });
      });
      deps.dropFeeds();
      return { removed: true };
    },

    /** Pins or unpins a post (editors; the route checks the role); audited. */
    async togglePin(editorId: number, postId: number) {
      const pinned = await inTx(async (tx) => {
        const r = communityRepo(tx);
        const post = await r.postForUpdate(postId);
        if (!post || post.status !== 'approved' || post.hidden)
          throw notFound('We could not find that post among the published ones.');
        const next = !post.pinned;
        await r.setPinned(postId, next);
        await recordAudit(tx, {
          actorId: editorId,
          action: next ? 'post.pin' : 'post.unpin',
          targetKind: 'post',
          targetId: postId,
        });
        return next;
      });
      deps.dropFeeds();
      return { postId, pinned };
    },

    /** A page of the public feed (the same for everyone: no likes). */
    async feed(page: number) {
      const { ids, hasNext } = await paged(page, repo.feedIds);
      return { list: await hydrate(ids, null, false), page, hasNext };
    },

    async pinned(page: number) {
      const { ids, hasNext } = await paged(page, repo.pinnedIds);
      return { list: await hydrate(ids, null, false), page, hasNext };
    },

    /** A person's posts, newest first; their own with every state, for them. */
    async timeline(userId: number, viewer: Viewer | null, page: number) {
      const own = viewer?.userId === userId;
      const [{ ids, hasNext }, roled] = await Promise.all([
        paged(page, (limit, offset) => repo.timelineIds(userId, own, limit, offset)),
        withRole(viewer),
      ]);
      // A page with posts says the person exists; only an empty one asks.
      if (ids.length === 0 && !(await repo.userExists(userId)))
        throw notFound('We could not find that reader.');
      return { list: await hydrate(ids, roled, true), page, hasNext };
    },

    /** Which of these posts the viewer likes (the overlay on cached feed pages). */
    async liked(viewer: Viewer, postIds: number[]) {
      return { liked: [...(await repo.likedOf(viewer.userId, postIds))].sort((a, b) => a - b) };
    },

    /**
     * Likes or stops liking a post (`wanted`, else toggles). A like sent twice at once counts
     * once: the likes key admits one row, and the count moves only with a row that changed.
     */
    async like(viewer: Viewer, postId: number, wanted?: boolean) {
      const role = await roleOf(db, viewer.userId);
      const state = await repo.postState(postId);
      if (
        !state ||
        !canSee({ ...state, userId: Number(state.userId) }, { userId: viewer.userId, role }) ||
        state.status !== 'approved'
      )
        throw notFound(NOT_FOUND_POST);
      return inTx(async (tx) => {
        const r = communityRepo(tx);
        // Toggling tries to take the like back first; a like sent again only adds nothing.
        if (wanted !== true && (await r.removeLike(postId, viewer.userId)))
          return { liked: false, likes: await r.bump(postId, 'likes', -1) };
        if (wanted === false) return { liked: false, likes: await r.likes(postId) };
        if (!(await r.addLike(postId, viewer.userId)))
          return { liked: true, likes: await r.likes(postId) };
        await enqueueNotices(tx, queue, { kind: 'like', postId, actorId: viewer.userId });
        return { liked: true, likes: await r.bump(postId, 'likes', 1) };
      });
    },

    /** Shares a post or a story to the caller's followers, with an optional line. */
    async share(viewer: Viewer, body: { post_id?: number; storyId?: number; text?: string }) {
      if ((body.post_id === undefined) === (body.storyId === undefined))
        throw invalid('Share either a post (post_id) or a story (storyId).');
      const text = cleanText(body.text ?? '');
      if (lengthOf(text) > COMMUNITY.shareChars)
        throw invalid(`A share's text can be at most ${COMMUNITY.shareChars} characters.`, 'text');
      const role = await roleOf(db, viewer.userId);
      const postId = await inTx(async (tx) => {
        const r = communityRepo(tx);
        let sharedPostId: number | null = null;
        if (body.post_id !== undefined) {
          const target = await r.postState(body.post_id);
          if (
            !target ||
            !canSee(
              { ...target, userId: Number(target.userId) },
              { userId: viewer.userId, role },
            ) ||
            target.status !== 'approved'
          )
            throw notFound(NOT_FOUND_POST);
          // A share of a share shares what it shared, as one level is all a post shows.
          const original = (await r.posts([body.post_id]))[0]!;
          sharedPostId = original.sharedPostId ?? body.post_id;
        } else if (!(await r.story(body.storyId!))) throw notFound('We could not find that story.');
        const state = text
          ? await statusFor(tx, viewer.userId, text, 'post')
          : { status: 'approved' as const, statusReason: null };
        const id = await r.insertPost({
          userId: viewer.userId,
          body: text,
          lang: langOf(text),
          ...state,
          sharedPostId,
          sharedStoryId: body.storyId ?? null,
        });
        if (sharedPostId !== null) await r.bump(sharedPostId, 'shares', 1);
        await r.insertMentions(
          id,
          null,
          text ? await mentionsIn(tx, text, viewer.userId, null) : [],
        );
        if (state.status === 'approved')
          await enqueueNotices(tx, queue, { kind: 'post', postId: id, actorId: viewer.userId });
        return id;
      });
      deps.dropFeeds();
      return onePost(postId, { userId: viewer.userId, role });
    },

    /** Comments on a visible post; held comments wait as 'pending'. */
    async comment(viewer: Viewer, postId: number, raw: string) {
      const text = cleanText(raw);
      if (!text) throw invalid('Write a comment before sending it.', 'comment');
      const n = lengthOf(text);
      if (n > COMMUNITY.commentChars)
        throw invalid(
          `A comment can be at most ${COMMUNITY.commentChars.toLocaleString('en')} characters; this one has ${n.toLocaleString('en')}.`,
          'comment',
        );
      const role = await roleOf(db, viewer.userId);
      const commentId = await inTx(async (tx) => {
        const r = communityRepo(tx);
        const post = await r.postState(postId);
        if (
          !post ||
          post.status !== 'approved' ||
          !canSee({ ...post, userId: Number(post.userId) }, { userId: viewer.userId, role })
        )
          throw notFound(NOT_FOUND_POST);
        const state = await statusFor(tx, viewer.userId, text, 'comment');
        const id = await r.insertComment({
          postId,
          userId: viewer.userId,
          body: text,
          lang: langOf(text),
          ...state,
        });
        await r.insertMentions(postId, id, await mentionsIn(tx, text, viewer.userId, postId));
        // comments_count follows the approved comments by itself (a trigger of 0018).
        if (state.status === 'approved')
          await enqueueNotices(tx, queue, {
            kind: 'comment',
            postId,
            commentId: id,
            actorId: viewer.userId,
          });
        return id;
      });
      return { comment: commentOf((await repo.comment(commentId))!, viewer.userId) };
    },

    /** A page of a post's comments, oldest first, with the viewer's followers for @mentions. */
    async comments(postId: number, viewer: Viewer | null, page: number) {
      const role = viewer ? await roleOf(db, viewer.userId) : 'reader';
      const post = await repo.postState(postId);
      if (
        !post ||
        !canSee(
          { ...post, userId: Number(post.userId) },
          viewer ? { userId: viewer.userId, role } : null,
        ) ||
        post.status === 'removed'
      )
        throw notFound(NOT_FOUND_POST);
      const size = COMMUNITY.pageSize;
      const found = await repo.comments(
        postId,
        viewer?.userId ?? null,
        size + 1,
        (page - 1) * size,
      );
      return {
        list: found.slice(0, size).map((c) => commentOf(c, viewer?.userId ?? null)),
        page,
        hasNext: found.length > size,
        followers: viewer
          ? (await repo.followersOf(viewer.userId, SUGGESTIONS)).map((f) => ({
              userId: Number(f.userId),
              username: f.username,
            }))
          : [],
      };
    },
  };

  function commentOf(c: CommentRow, viewerId: number | null): PostComment {
    return {
      id: c.id,
      postId: Number(c.postId),
      author: author(c),
      comment: c.body,
      lang: c.lang,
      mentions: c.mentions.map((m) => ({ userId: Number(m.userId), username: m.username })),
      createdAt: iso(c.createdAt),
      status: c.status,
      statusReason: c.userId === viewerId ? c.statusReason : null,
      editable: c.userId === viewerId,
    };
  }
}
export type CommunityService = ReturnType<typeof communityService>;

/**
 * Grants or removes a role and records who did it, in one transaction; `actorId` null is the
 * command line (`npm run role`). Asking for 'reader' or 'author' removes editor or admin (an
 * author stays one). Nobody changes their own role, so the last admin cannot lock everyone out.
 */
export async function setRole(
  db: Db,
  actorId: number | null,
  userId: number,
  wanted: Role,
  reason: string | null,
): Promise<{ userId: number; role: Role }> {
  if (actorId === userId)
    throw invalid('You cannot change your own role. Ask another admin to do it.', 'id');
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const r = communityRepo(tx);
    const before = await r.roleForUpdate(userId);
    if (!before) throw notFound('We could not find that account.');
    const target: Role =
      wanted === 'author' || wanted === 'reader' ? (before.isAuthor ? 'author' : 'reader') : wanted;
    if (before.role === target) return { userId, role: target };
    await r.setRole(userId, target);
    await recordAudit(tx, {
      actorId,
      action: target === 'editor' || target === 'admin' ? 'role.grant' : 'role.remove',
      targetKind: 'user',
      targetId: userId,
      reason,
      detail: { from: before.role, to: target },
    });
    return { userId, role: target };
  });
}
