import {
  COMMENT_PLATFORM,
  ENGAGEMENT,
  MAX_MENTIONS,
  ResultCode,
  formatCreatedDate,
  resolveMentions,
  toStored,
  type Comment,
  type Follower,
  type MentionCandidate,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { AppError, forbidden, invalid, notFound } from '../../errors.ts';
import type { EventDispatch } from '../../jobs/events.ts';
import { isReleased, isVisible } from '../stories/repo.ts';
import type { StoriesService } from '../stories/service.ts';
import { mayReadEpisode } from '../stories/policy.ts';
import { postingPace } from './pace.ts';
import { commentsRepo, type CommentRow, type CommentRef } from './repo.ts';

/** Comments a list answers at most (the page shows 5 until Read all responses). */
export const COMMENTS_LISTED = 200;
/** Replies a list answers at most. */
export const REPLIES_LISTED = 200;
/** Followers sent for mention suggestions at most. */
export const FOLLOWERS_LISTED = 500;
/** Writers of a part's comments considered when resolving a mention. */
const PARTICIPANTS = 200;
/** One-word names looked up among all users per comment, at most. */
const NAME_LOOKUPS = 3;

export interface CommentsDeps {
  db: Db;
  /** A story's row (the stories service keeps them: a comment reads no story from the database). */
  story: StoriesService['story'];
  /** A published episode of a story by its id, kept by the stories service as well. */
  episode: StoriesService['publishedEpisode'];
  /** A published episode of a story by its part number, kept likewise. */
  part: StoriesService['publishedPart'];
  /** Whether a reader is a member of a billing app (the stories service keeps their rows). */
  subscribed: StoriesService['subscribed'];
  /** Asks for the comment.posted events' jobs (the dispatcher's, jobs/events.ts). */
  events: EventDispatch;
}

// Text that is only spaces and invisible joiners says nothing.
const BLANK = /^[\s\u200B-\u200D\u2060\uFEFF]*$/u;
// PostgreSQL text cannot hold U+0000 or a lone surrogate: refuse them instead of failing.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * Comment and reply text as it is stored: NFC, spaces trimmed at the ends, otherwise exactly as
 * typed (never escaped or sanitised: every reader shows it as text). Length is in Unicode code
 * points, as the request schema counts (a Sinhala letter with its vowel sign is two).
 */
export function commentText(raw: string, what: 'comment' | 'reply' | 'reason'): string {
  const text = toStored(raw).trim();
  if (BLANK.test(text))
    throw invalid(
      what === 'comment'
        ? 'Write something before posting.'
        : what === 'reply'
          ? 'Write a reply before sending it.'
          : 'Say why you are reporting this comment.',
    );
  if (unstorable(text)) throw invalid('The text contains characters that are not allowed.');
  const max = what === 'reason' ? ENGAGEMENT.reportReasonChars : ENGAGEMENT.commentChars;
  const n = Array.from(text).length;
  if (n > max)
    throw invalid(
      `${what === 'reason' ? 'A reason' : what === 'reply' ? 'A reply' : 'A comment'} can be at most ${max.toLocaleString('en')} characters long; this one has ${n.toLocaleString('en')}.`,
    );
  return text;
}

const membersOnly = () =>
  new AppError(
    403,
    ResultCode.subscriptionRequired,
    'This story is for members. Subscribe to join the conversation.',
  );

const tooFast = (seconds: number) =>
  new AppError(
    429,
    ResultCode.tooManyRequests,
    `You are posting quickly. Please wait ${seconds} second${seconds === 1 ? '' : 's'} before posting again.`,
  );

const storyGone = () => notFound('We could not find that story. It may have been removed.');
const commentGone = () => notFound('We could not find that comment. It may have been removed.');

/** Comments, replies, mentions and reports on episodes (SPEC.md 2, 3; the readers-engage issue). */
export function commentsService(deps: CommentsDeps) {
  const { db } = deps;
  const repo = commentsRepo(db);

  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => work(tx as unknown as Db));

  const toComment = (r: CommentRow, viewerId: number, authorUserId: number | null): Comment => {
    const isAuthor = authorUserId !== null && r.userId === authorUserId;
    return {
      commentId: r.commentId,
      storyId: r.storyId,
      episode: r.partNumber,
      unicodeCompatibleUsername: r.username,
      unicodeCompatibleFeedback: r.body,
      createdDate: formatCreatedDate(r.createdAt),
      repliesCount: r.repliesCount,
      isAuthor,
      editable: r.userId === viewerId,
      // The author's own stars would be a vote for themselves: authors show a badge instead.
      rating: isAuthor ? null : r.rating,
      replies: [],
      userId: r.userId,
      mentions: r.mentions,
    };
  };

  /** A public, released story and the user behind its author; 404 otherwise. */
  const releasedStory = async (storyId: number) => {
    const story = await deps.story(storyId);
    if (!story || !isReleased(story)) throw storyGone();
    return { story, authorUserId: story.authorUserId };
  };

  /** Members-only stories and episodes take part only with a subscription (SPEC.md 6). */
  const mayTakePart = async (
    viewer: Viewer,
    story: { membersOnly: boolean; appId: string },
    episode: { membersOnly: boolean },
  ) => {
    const locked = story.membersOnly || episode.membersOnly;
    const subscribed = locked ? await deps.subscribed(viewer.userId, story.appId) : false;
    if (!mayReadEpisode(viewer, subscribed, story, episode)) throw membersOnly();
  };

  /**
   * Who the text mentions: among the part's writers, the story's author and the writer's
   * followers the longest name after each '@'; else a user with exactly that one-word name,
   * if only one has it. `also` (the writer of the reply being answered) is always mentioned.
   */
  const mentionsIn = async (
    tx: Db,
    text: string,
    writer: number,
    where: { storyId: number; partNumber: number; authorUserId: number | null },
    also: number | null = null,
  ) => {
    // Without an '@' the text mentions no one: no names to read (most comments).
    if (!text.includes('@')) return also !== null && also !== writer ? [also] : [];
    const r = commentsRepo(tx);
    const candidates: MentionCandidate[] = [
      ...(await r.participants(where.storyId, where.partNumber, where.authorUserId, PARTICIPANTS)),
      ...(await r.followersOf(writer, FOLLOWERS_LISTED)),
    ];
    const found = resolveMentions(text, candidates, writer);
    const ids = also !== null && also !== writer ? [also, ...found.userIds] : found.userIds;
    // One indexed lookup per unresolved name (users_username_key), a few per comment at most.
    for (const word of found.unresolved.slice(0, NAME_LOOKUPS)) {
      if (ids.length >= MAX_MENTIONS) break;
      const named = await r.userNamed(word);
      if (named && named.userId !== writer) ids.push(named.userId);
    }
    return [...new Set(ids)].slice(0, MAX_MENTIONS);
  };

  /**
   * Stores a comment or reply with its mentions and its event, within the writer's posting pace
   * (pace.ts: a token bucket in the database, for every instance), in one statement; `tx` when
   * it joins a transaction. The event's jobs are the dispatcher's (jobs/events.ts), asked for
   * once the post is in.
   */
  const store = async (
    tx: Db,
    viewer: Viewer,
    v: {
      storyId: number;
      episodeId: number;
      partNumber: number;
      parentId: number | null;
      body: string;
      authorUserId: number | null;
      alsoMention?: number | null;
    },
  ) => {
    const { wait, comment } = await commentsRepo(tx).insertListed(postingPace(viewer.userId), {
      storyId: v.storyId,
      episodeId: v.episodeId,
      partNumber: v.partNumber,
      userId: viewer.userId,
      parentId: v.parentId,
      body: v.body,
      platform: COMMENT_PLATFORM,
      mentions: await mentionsIn(tx, v.body, viewer.userId, v, v.alsoMention ?? null),
    });
    if (!comment) throw tooFast(wait ?? 1);
    return toComment(comment, viewer.userId, v.authorUserId);
  };

  return {
    /** Top-level comments on part n, newest first, and who follows the viewer. */
    async list(
      viewer: Viewer,
      storyId: number,
      partNumber: number,
    ): Promise<{ comments: Comment[]; followers: Follower[] }> {
      const story = await deps.story(storyId);
      if (!story || !isVisible(story)) throw storyGone();
      // Two independent reads: asked together, the list waits for one round trip, not two.
      const [rows, followers] = await Promise.all([
        repo.topLevel(storyId, partNumber, COMMENTS_LISTED, viewer.userId),
        repo.followersOf(viewer.userId, FOLLOWERS_LISTED),
      ]);
      return {
        comments: rows.map((r) => toComment(r, viewer.userId, story.authorUserId)),
        followers,
      };
    },

    /** Replies to one comment, oldest first. */
    async replies(viewer: Viewer, commentId: number): Promise<{ list: Comment[] }> {
      const comment = await repo.comment(commentId);
      if (!comment) throw commentGone();
      const story = await deps.story(comment.storyId);
      if (!story || !isVisible(story)) throw storyGone();
      const rows = await repo.replies(comment.id, REPLIES_LISTED, viewer.userId);
      return { list: rows.map((r) => toComment(r, viewer.userId, story.authorUserId)) };
    },

    /** A comment on a published episode of the story. */
    async post(
      viewer: Viewer,
      body: { storyId: number; episodeId: number; feedback: string },
    ): Promise<{ comment: Comment }> {
      const text = commentText(body.feedback, 'comment');
      const { story, authorUserId } = await releasedStory(body.storyId);
      const episode = await deps.episode(story.storyId, body.episodeId);
      if (!episode) throw notFound('We could not find that episode of the story.');
      await mayTakePart(viewer, story, episode);
      const comment = await store(db, viewer, {
        storyId: story.storyId,
        episodeId: episode.id,
        partNumber: episode.partNumber,
        parentId: null,
        body: text,
        authorUserId,
      });
      await deps.events.soon();
      return { comment };
    },

    /**
     * A reply. Replies are one level deep: a reply to a reply joins the same top-level comment
     * and mentions the writer of the reply it answers.
     */
    async reply(
      viewer: Viewer,
      body: { commentId: number; reply: string },
    ): Promise<{ comment: Comment }> {
      const text = commentText(body.reply, 'reply');
      const answered = await repo.comment(body.commentId);
      if (!answered) throw commentGone();
      const top: CommentRef | undefined = answered.parentId
        ? await repo.comment(answered.parentId)
        : answered;
      if (!top) throw commentGone();
      const { story, authorUserId } = await releasedStory(top.storyId);
      const episode = await deps.part(story.storyId, top.partNumber);
      if (!episode) throw notFound('That episode is no longer published.');
      await mayTakePart(viewer, story, episode);
      const comment = await inTransaction(async (tx) => {
        // Counting first locks the top-level comment: a removal of it waits for this reply.
        if (!(await commentsRepo(tx).addReplies(top.id, 1))) throw commentGone();
        return store(tx, viewer, {
          storyId: story.storyId,
          episodeId: episode.episodeId,
          partNumber: top.partNumber,
          parentId: top.id,
          body: text,
          authorUserId,
          alsoMention: answered.parentId ? answered.userId : null,
        });
      });
      await deps.events.soon();
      return { comment };
    },

    /** Removes the viewer's own comment with its replies, or a reply, keeping counts right. */
    async remove(viewer: Viewer, body: { storyId: number; commentId: number }) {
      await inTransaction(async (tx) => {
        const r = commentsRepo(tx);
        const comment = await r.comment(body.commentId);
        if (!comment || comment.storyId !== body.storyId) throw commentGone();
        if (comment.userId !== viewer.userId)
          throw forbidden('You can remove only your own comments.');
        // The parent is locked before the reply, in the order a new reply takes them.
        if (comment.parentId) await r.comment(comment.parentId, { lock: true });
        const locked = await r.comment(comment.id, { lock: true });
        if (!locked) throw commentGone();
        await r.remove(comment.id);
        if (comment.parentId) await r.addReplies(comment.parentId, -1);
      });
      return { removed: true };
    },

    /** Puts a comment in the editors' review queue; the same reader reporting again counts once. */
    async report(viewer: Viewer, body: { commentId: number; reason: string }) {
      const reason = commentText(body.reason, 'reason');
      const comment = await repo.comment(body.commentId);
      if (!comment) throw commentGone();
      if (comment.userId === viewer.userId) throw invalid('You cannot report your own comment.');
      await repo.report(comment.id, viewer.userId, reason);
      return { reported: true };
    },
  };
}
export type CommentsService = ReturnType<typeof commentsService>;
