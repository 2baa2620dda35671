import { Type, type Static } from 'typebox';
import { IdParam } from './common.ts';
import { StoryListItem } from './stories.ts';
import { COMMENT_PLATFORM, ENGAGEMENT, VIEW_MEDIUM } from '../constants.ts';

/* Ratings and claps (the readers-engage issue). */

/** `rating` is a string (SPEC.md 3): '0' to '5' in half steps; the service says what is wrong. */
export const RateBody = Type.Object(
  { rating: Type.String({ maxLength: 10 }) },
  { additionalProperties: false },
);
export const RateAnswer = Type.Object({
  /** A fresh token (SPEC.md 3: the rating answer carries object.accesstoken). */
  accesstoken: Type.String(),
  /** The story's new mean rating and how many readers rated it. */
  rating: Type.Number(),
  ratingCount: Type.Integer(),
  /** What this reader's rating now is. */
  userRating: Type.Number(),
});
export type RateAnswer = Static<typeof RateAnswer>;

/* Bookmarks and reading progress. */

export const BookmarkParams = Type.Object(
  { storyId: IdParam, state: Type.Union([Type.Literal(0), Type.Literal(1)]) },
  { additionalProperties: false },
);
export const BookmarkAnswer = Type.Object({ bookmarked: Type.Boolean() });

/** Where a reader stopped in a story. */
export const Progress = Type.Object({
  partNumber: Type.Integer(),
  /** 0 to 1: how far down the episode. */
  position: Type.Number(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Progress = Static<typeof Progress>;

export const BookmarkItem = Type.Object({
  story: StoryListItem,
  bookmarkedAt: Type.String({ format: 'date-time' }),
  progress: Type.Union([Progress, Type.Null()]),
});
export type BookmarkItem = Static<typeof BookmarkItem>;
export const BookmarkList = Type.Object({ list: Type.Array(BookmarkItem) });

export const ProgressBody = Type.Object(
  {
    storyId: IdParam,
    partNumber: Type.Integer({ minimum: 1, maximum: 100_000 }),
    position: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { additionalProperties: false },
);
/** Continue reading: the stories a reader has open, most recent first. */
export const ContinueItem = Type.Object({ story: StoryListItem, progress: Progress });
export type ContinueItem = Static<typeof ContinueItem>;
export const ContinueList = Type.Object({ list: Type.Array(ContinueItem) });

/* Views. */

export const ViewBody = Type.Object(
  {
    medium: Type.Literal(VIEW_MEDIUM),
    partNumber: Type.Integer({ minimum: 1, maximum: 100_000 }),
  },
  { additionalProperties: false },
);
/** `counted` is false when this reader's view of that part was already counted today. */
export const ViewAnswer = Type.Object({ counted: Type.Boolean() });

/* Comments, replies, mentions and reports (SPEC.md 3 Comment). */

const CommentText = Type.String({ maxLength: ENGAGEMENT.commentChars * 2 });

export const CommentsQuery = Type.Object({
  episode: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
});

/** One comment or reply exactly as SPEC.md 3 names its fields; text is always shown as text. */
/** Someone a comment mentions (as recorded when it was posted): the page links '@name' to them. */
export const Mentioned = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  /** Their author page's id when they are an author (the link goes there), else null. */
  authorId: Type.Union([Type.Integer(), Type.Null()]),
});
export type Mentioned = Static<typeof Mentioned>;

export const Comment = Type.Object({
  commentId: Type.Integer(),
  storyId: Type.Integer(),
  episode: Type.Integer(),
  /** The writer's username (NFC), not cut: the page cuts it for display (SPEC.md 5). */
  unicodeCompatibleUsername: Type.String(),
  unicodeCompatibleFeedback: Type.String(),
  /** DD-MM-YY hh:mm:ss a, Sri Lanka time. */
  createdDate: Type.String(),
  repliesCount: Type.Integer(),
  /** The story's author wrote it: a verified badge and no rating. */
  isAuthor: Type.Boolean(),
  /** The viewer wrote it and may remove it. */
  editable: Type.Boolean(),
  /** The writer's rating of the story, or null (always null for the author). */
  rating: Type.Union([Type.Number(), Type.Null()]),
  /** Always empty in a list: replies load when opened. */
  replies: Type.Array(Type.Unknown()),
  /** The writer's user id, so a mention can name them. */
  userId: Type.Integer(),
  /** The people it mentions, each once. */
  mentions: Type.Array(Mentioned),
});
export type Comment = Static<typeof Comment>;

export const Follower = Type.Object({ userId: Type.Integer(), username: Type.String() });
export type Follower = Static<typeof Follower>;
/** Comments on one episode, newest first, and the viewer's followers for mention suggestions. */
export const CommentsAnswer = Type.Object({
  comments: Type.Array(Comment),
  followers: Type.Array(Follower),
});

export const CommentBody = Type.Object(
  {
    storyId: IdParam,
    /** The episode's id (as in the details answer's part.episodeId). */
    episodeId: IdParam,
    feedback: CommentText,
    platform: Type.Literal(COMMENT_PLATFORM),
  },
  { additionalProperties: false },
);
export const CommentDeleteBody = Type.Object(
  { storyId: IdParam, commentId: IdParam },
  { additionalProperties: false },
);
export const ReplyBody = Type.Object(
  { commentId: IdParam, reply: CommentText, platform: Type.Literal(COMMENT_PLATFORM) },
  { additionalProperties: false },
);
export const ReportBody = Type.Object(
  { commentId: IdParam, reason: Type.String({ maxLength: ENGAGEMENT.reportReasonChars * 2 }) },
  { additionalProperties: false },
);
export const CommentAnswer = Type.Object({ comment: Comment });
export const RepliesAnswer = Type.Object({ list: Type.Array(Comment) });
export const RemovedAnswer = Type.Object({ removed: Type.Boolean() });
export const ReportAnswer = Type.Object({ reported: Type.Boolean() });

/* Follows. */

/**
 * Follow or stop following a user. `following` is the state asked for (a repeated tap changes
 * nothing); without it the call toggles, as older clients expect.
 */
export const FollowBody = Type.Object(
  { followed_id: IdParam, following: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const FollowAnswer = Type.Object({
  following: Type.Boolean(),
  followers: Type.Integer(),
});
/** Whom the viewer follows (for /account), with author ids where they are authors. */
export const FollowingItem = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  authorId: Type.Union([Type.Integer(), Type.Null()]),
  authorName: Type.Union([Type.String(), Type.Null()]),
});
export const FollowingList = Type.Object({ list: Type.Array(FollowingItem) });
/** A reader's public profile: the page a mention of them links to (authors have theirs). */
export const UserProfile = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  /** When they joined (ISO 8601). */
  since: Type.String(),
  /** Their author page's id when they are an author, else null. */
  authorId: Type.Union([Type.Integer(), Type.Null()]),
});
export type UserProfile = Static<typeof UserProfile>;
/** An author's follow state for the author page (followers count for everyone). */
export const FollowState = Type.Object({
  userId: Type.Union([Type.Integer(), Type.Null()]),
  following: Type.Boolean(),
  followers: Type.Integer(),
});

/* Notifications (SPEC.md 3) and Web Push. */

/** SPEC.md 3: a mention is a comment too, so it reads NEW COMMENT (its description says who). */
export const NotificationTitle = {
  newStory: 'NEW STORY',
  newEpisode: 'NEW EPISODE',
  newComment: 'NEW COMMENT',
} as const;

/**
 * Reading comfort, remembered per device under this localStorage key as JSON
 * `{theme: 'system'|'light'|'sepia'|'dark', size: 0..4, spacing: 0..2}`. A tiny script in the
 * page head applies it before first paint as <html data-theme data-text-size data-line-spacing>.
 */
export const COMFORT_STORAGE_KEY = 'kathamala.comfort';

export const Notification = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('story'), Type.Literal('comment')]),
  storyId: Type.Integer(),
  episode: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  /** DD-MM-YY hh:mm:ss a, Sri Lanka time. */
  createdDate: Type.String(),
  read: Type.Boolean(),
});
export type Notification = Static<typeof Notification>;
export const NotificationList = Type.Object({
  notifications: Type.Array(Notification),
  /** Unread before this call (the call marks them read). */
  unread: Type.Integer(),
});
/** The unread count alone, for the menu badge; does not mark anything read. */
export const UnreadAnswer = Type.Object({ unread: Type.Integer() });

export const PushKeyAnswer = Type.Object({ publicKey: Type.String() });
export const PushSubscribeBody = Type.Object(
  {
    endpoint: Type.String({ format: 'uri', maxLength: 1000, pattern: '^https?://' }),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 1, maxLength: 200 }),
        auth: Type.String({ minLength: 1, maxLength: 100 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export const PushUnsubscribeBody = Type.Object(
  { endpoint: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);
export const PushAnswer = Type.Object({ subscribed: Type.Boolean() });
