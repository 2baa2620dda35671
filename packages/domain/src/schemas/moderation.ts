import { Type, type Static } from 'typebox';
import { IdParam } from './common.ts';
import { MAX_PAGE } from '../constants.ts';

/**
 * The editors' review (issue 28): flags, one review queue, decisions and the kept word list.
 * Field names the spec names stay as it spells them (post_id, id, decision, reason).
 */

/** Limits of the review. */
export const REVIEW = {
  /** A flag's reason and a decision's sentence, in characters after trimming. */
  reasonChars: 500,
  /** A kept word or phrase. */
  wordChars: 60,
  /** Words on the list at most. */
  words: 2_000,
  /** Queue items on one page. */
  pageSize: 20,
  /** A target's text as the queue previews it, in characters. */
  previewChars: 280,
  /** Different people whose flags hide a post until an editor decides. */
  flagsToHide: 3,
  /** Posts of an account younger than a day that wait for review. */
  heldFirstPosts: 3,
} as const;

/** What the queue reviews: a community post, a profile, a story comment, a post's comment. */
export const REVIEW_KINDS = ['post', 'profile', 'comment', 'post_comment'] as const;
export const ReviewKind = Type.Unsafe<(typeof REVIEW_KINDS)[number]>({
  type: 'string',
  enum: [...REVIEW_KINDS],
});
export type ReviewKind = Static<typeof ReviewKind>;

/** An editor's decision: approve (it stays or shows), reject (it goes), ignore (flags dismissed). */
export const DECISIONS = ['approve', 'reject', 'ignore'] as const;
export const Decision = Type.Unsafe<(typeof DECISIONS)[number]>({
  type: 'string',
  enum: [...DECISIONS],
});
export type Decision = Static<typeof Decision>;

/** What happened to a target, in its history. */
export const REVIEW_ACTIONS = [
  'held',
  'flagged',
  'hidden',
  'approved',
  'rejected',
  'ignored',
] as const;
export const ReviewAction = Type.Unsafe<(typeof REVIEW_ACTIONS)[number]>({
  type: 'string',
  enum: [...REVIEW_ACTIONS],
});
export type ReviewAction = Static<typeof ReviewAction>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);
const Person = Type.Object({ userId: Type.Integer(), username: Type.String() });
const Reason = Type.String({ maxLength: REVIEW.reasonChars * 4 });

/** PUT /api/v1/community/post/review: flag a post. */
export const FlagPostBody = Type.Object(
  { post_id: IdParam, reason: Reason },
  { additionalProperties: false },
);
/** POST /api/v1/community/user/profile/review: flag a profile (`id` is the user's id). */
export const FlagProfileBody = Type.Object(
  { id: IdParam, reason: Reason },
  { additionalProperties: false },
);
/**
 * A flag's answer: `counted` is false when the caller had flagged this before (one flag per
 * person per target); `hidden` whether the target is now hidden until an editor decides.
 */
export const FlagAnswer = Type.Object({
  flagged: Type.Boolean(),
  counted: Type.Boolean(),
  hidden: Type.Boolean(),
});
export type FlagAnswer = Static<typeof FlagAnswer>;

/** The target of a queue item, as an editor needs to judge it. */
export const ReviewTarget = Type.Object({
  kind: ReviewKind,
  /** The post's, profile's (user's), story comment's or post comment's id. */
  id: Type.Integer(),
  /** Who wrote it (for a profile, whose profile it is), with when they joined (ISO 8601). */
  author: Type.Object({
    userId: Type.Integer(),
    username: Type.String(),
    joinedAt: Type.String(),
  }),
  /** The text (a profile's bio), cut to REVIEW.previewChars; plain text, shown as text. */
  preview: Type.String(),
  /** The target's state now: a post's or comment's status ('approved', 'pending', ...). */
  status: Type.String(),
  /** A profile with a picture (a rejection takes it away). */
  hasAvatar: Type.Boolean(),
  /** Where it is: the story and part of a story comment; the post of a post comment. */
  storyId: Nullable(Type.Integer()),
  partNumber: Nullable(Type.Integer()),
  postId: Nullable(Type.Integer()),
});
export type ReviewTarget = Static<typeof ReviewTarget>;

export const ReviewFlag = Type.Object({
  by: Person,
  reason: Type.String(),
  createdAt: Type.String(),
});
export type ReviewFlag = Static<typeof ReviewFlag>;

/** One step of a target's history; `by` is null for the product's own holds. */
export const ReviewHistoryEntry = Type.Object({
  action: ReviewAction,
  by: Nullable(Person),
  note: Nullable(Type.String()),
  at: Type.String(),
});
export type ReviewHistoryEntry = Static<typeof ReviewHistoryEntry>;

/** One item of the queue: an open case. */
export const ReviewItem = Type.Object({
  caseId: Type.Integer(),
  target: ReviewTarget,
  /** Why it was held back before anyone saw it (its writer reads the same), else null. */
  heldReason: Nullable(Type.String()),
  /** True when flags hid it until a decision. */
  hidden: Type.Boolean(),
  /** Kept words its text contains, as the list spells them. */
  matchedWords: Type.Array(Type.String()),
  openedAt: Type.String(),
  flags: Type.Array(ReviewFlag),
  /** Oldest first, across earlier reviews of the same target too. */
  history: Type.Array(ReviewHistoryEntry),
});
export type ReviewItem = Static<typeof ReviewItem>;

/** GET /api/v1/community/reviews?page: open items, oldest first. */
export const ReviewPage = Type.Object({
  list: Type.Array(ReviewItem),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
});
export type ReviewPage = Static<typeof ReviewPage>;
export const ReviewPageQuery = Type.Object(
  { page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }) },
  { additionalProperties: false },
);

const decisionFields = {
  decision: Decision,
  /** A sentence shown to the writer with a rejection. */
  reason: Type.Optional(Reason),
};
/** POST /api/v1/community/review/post. */
export const DecidePostBody = Type.Object(
  { post_id: IdParam, ...decisionFields },
  { additionalProperties: false },
);
/** PUT /api/v1/community/review/profile (`id` is the user's id). */
export const DecideProfileBody = Type.Object(
  { id: IdParam, ...decisionFields },
  { additionalProperties: false },
);
/** POST /api/v1/community/review/comment: a reported story comment. */
export const DecideCommentBody = Type.Object(
  { commentId: IdParam, ...decisionFields },
  { additionalProperties: false },
);
/** POST /api/v1/community/review/post-comment: a held or flagged comment on a post. */
export const DecidePostCommentBody = Type.Object(
  { id: IdParam, ...decisionFields },
  { additionalProperties: false },
);
export const DecisionAnswer = Type.Object({
  caseId: Type.Integer(),
  kind: ReviewKind,
  id: Type.Integer(),
  decision: Decision,
  decidedBy: Person,
  decidedAt: Type.String(),
});
export type DecisionAnswer = Static<typeof DecisionAnswer>;

/** A word (or phrase) editors keep: posts and comments with it wait for review. */
export const ReviewWord = Type.Object({
  id: Type.Integer(),
  word: Type.String(),
  addedBy: Nullable(Person),
  createdAt: Type.String(),
});
export type ReviewWord = Static<typeof ReviewWord>;
export const ReviewWordList = Type.Object({ list: Type.Array(ReviewWord) });
export const ReviewWordBody = Type.Object(
  { word: Type.String({ maxLength: REVIEW.wordChars * 4 }) },
  { additionalProperties: false },
);
export const ReviewWordAnswer = Type.Object({ word: ReviewWord });
export const ReviewWordParams = Type.Object({ id: IdParam }, { additionalProperties: false });
export const ReviewWordRemoved = Type.Object({ removed: Type.Boolean() });

/** The review's addresses, built the same way by the server's tests and the web. */
export const reviewPaths = {
  flagPost: () => '/api/v1/community/post/review',
  flagProfile: () => '/api/v1/community/user/profile/review',
  queue: (page = 1) => `/api/v1/community/reviews?page=${page}`,
  decidePost: () => '/api/v1/community/review/post',
  decideProfile: () => '/api/v1/community/review/profile',
  decideComment: () => '/api/v1/community/review/comment',
  decidePostComment: () => '/api/v1/community/review/post-comment',
  words: () => '/api/v1/community/review/words',
  word: (id: number) => `/api/v1/community/review/words/${id}`,
} as const;
