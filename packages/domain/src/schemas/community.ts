import { Type, type Static } from 'typebox';
import { IdParam, Language } from './common.ts';
import { MAX_PAGE } from '../constants.ts';

/**
 * The community area's answers and bodies (SPEC.md 1, 7; issue 28). Field names the spec names
 * stay as it spells them (post_id, followed_id, storyId, comment, decision, reason, id); the rest
 * are camelCase like every other answer.
 */

/** Limits of the community area; SPEC.md 9 names none, these are the product's. */
export const COMMUNITY = {
  /** A post's text, in characters after NFC (zero-width joiners kept and counted). */
  postChars: 5_000,
  /** A post comment's text, in characters after trimming. */
  commentChars: 2_000,
  /** A share's own line of text. */
  shareChars: 500,
  imagesPerPost: 4,
  /** An uploaded image's bytes and pixels before re-encoding. */
  imageBytes: 8 * 1024 * 1024,
  imageMaxPixels: 40_000_000,
  /** The smaller side of an upload must be at least this many pixels. */
  imageMinSide: 64,
  /** A profile's bio. */
  bioChars: 300,
  /** A flag's or a removal's reason. */
  reasonChars: 500,
  /** Posts, comments, notifications and audit rows on one page. */
  pageSize: 20,
} as const;

/** Every account has exactly one role (issue 28); authors stay authors. */
export const ROLES = ['reader', 'author', 'editor', 'admin'] as const;
export const Role = Type.Unsafe<(typeof ROLES)[number]>({ type: 'string', enum: [...ROLES] });
export type Role = Static<typeof Role>;

/** A post's review state: only approved posts (not hidden by flags) show to others. */
export const POST_STATUSES = ['approved', 'pending', 'rejected', 'removed'] as const;
export const PostStatus = Type.Unsafe<(typeof POST_STATUSES)[number]>({
  type: 'string',
  enum: [...POST_STATUSES],
});
export type PostStatus = Static<typeof PostStatus>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

/**
 * An uploaded image as WebP sizes: `src` the largest, `srcset` every size with its width
 * (`… 320w, … 640w, … 1080w`), as story covers are served.
 */
export const CommunityImage = Type.Object({
  imageId: Type.Integer(),
  src: Type.String(),
  srcset: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type CommunityImage = Static<typeof CommunityImage>;

/** A profile picture: square WebP sizes with a srcset. */
export const Avatar = Type.Object({ src: Type.String(), srcset: Type.String() });
export type Avatar = Static<typeof Avatar>;

/** Who wrote a post or comment, with their role for the badge. */
export const PostAuthor = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  avatar: Nullable(Avatar),
  role: Role,
});
export type PostAuthor = Static<typeof PostAuthor>;

/** A shared story as a post shows it: its cover and title. */
export const SharedStory = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  /** The cover's address (story_cover_{storyId}.png on the images host) and its WebP sizes. */
  cover: Type.String(),
  coverSrcset: Type.String(),
  lang: Language,
});
export type SharedStory = Static<typeof SharedStory>;

/** The fields of a post without what it shares (a shared post shows one level only). */
const postFields = {
  postId: Type.Integer(),
  author: PostAuthor,
  /** Plain text as written (NFC, ZWJ kept); the page shows it as text, links and @mentions made safe. */
  text: Type.String(),
  /** 'si' when the text is mostly Sinhala, else 'en': the page's lang attribute. */
  lang: Type.Union([Type.Literal('si'), Type.Literal('en')]),
  images: Type.Array(CommunityImage),
  /** Whom the text mentions, so the page links exactly those names. */
  mentions: Type.Array(Type.Object({ userId: Type.Integer(), username: Type.String() })),
  /** ISO 8601. */
  createdAt: Type.String(),
  editedAt: Nullable(Type.String()),
  /** Others only ever see 'approved'; the writer sees their own post's state. */
  status: PostStatus,
  /** Why it waits or was rejected or removed (for its writer), else null. */
  statusReason: Nullable(Type.String()),
  likes: Type.Integer(),
  comments: Type.Integer(),
  shares: Type.Integer(),
  /** Whether the viewer likes it: always false in answers shared by everyone (see likedPosts). */
  liked: Type.Boolean(),
  pinned: Type.Boolean(),
};

export const SharedPost = Type.Object({ ...postFields });
export type SharedPost = Static<typeof SharedPost>;

/** What a share post shows: a post (when still visible; null when gone) or a story. */
export const Shared = Nullable(
  Type.Union([
    Type.Object({ kind: Type.Literal('post'), post: Nullable(SharedPost) }),
    Type.Object({ kind: Type.Literal('story'), story: Nullable(SharedStory) }),
  ]),
);

export const Post = Type.Object({ ...postFields, shared: Shared });
export type Post = Static<typeof Post>;

const Page = Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 });

/** ?page (1-based) of a list. */
export const CommunityPageQuery = Type.Object({ page: Page }, { additionalProperties: false });

/** A page of posts: `hasNext` says whether `page + 1` has any. */
export const PostPage = Type.Object({
  list: Type.Array(Post),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
});
export type PostPage = Static<typeof PostPage>;

/** One post: GET /community/post/{id}, /community/feed/{id}, and the answer to create/edit. */
export const PostAnswer = Type.Object({ post: Post });
export type PostAnswer = Static<typeof PostAnswer>;

/**
 * POST /api/v1/community/user/post. `images` are ids of images uploaded first to
 * /community/image/upload/post/new (the writer's drafts); at most 4. Text may be empty only
 * when there are images.
 */
export const PostCreateBody = Type.Object(
  {
    text: Type.String({ maxLength: COMMUNITY.postChars * 4 }),
    images: Type.Optional(Type.Array(IdParam, { maxItems: COMMUNITY.imagesPerPost * 2 })),
  },
  { additionalProperties: false },
);
export type PostCreateBody = Static<typeof PostCreateBody>;

/** PUT /api/v1/community/user/post: one's own post's new text (images: the kept and new ones). */
export const PostEditBody = Type.Object(
  {
    post_id: IdParam,
    text: Type.String({ maxLength: COMMUNITY.postChars * 4 }),
    images: Type.Optional(Type.Array(IdParam, { maxItems: COMMUNITY.imagesPerPost * 2 })),
  },
  { additionalProperties: false },
);
export type PostEditBody = Static<typeof PostEditBody>;

/** DELETE /api/v1/community/post/{id}?reason=…: an editor removing another's post says why. */
export const PostDeleteQuery = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: COMMUNITY.reasonChars * 2 })) },
  { additionalProperties: false },
);
export const RemovedPost = Type.Object({ removed: Type.Boolean() });

/** PUT /api/v1/community/post/like: without `liked` it toggles; with it, sets that state. */
export const LikeBody = Type.Object(
  { post_id: IdParam, liked: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const LikeAnswer = Type.Object({ liked: Type.Boolean(), likes: Type.Integer() });
export type LikeAnswer = Static<typeof LikeAnswer>;

/** GET /api/v1/community/post/liked?post_id=1,2,3: which of these posts the viewer likes. */
export const LikedQuery = Type.Object(
  { post_id: Type.String({ pattern: '^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,49}$' }) },
  { additionalProperties: false },
);
export const LikedAnswer = Type.Object({ liked: Type.Array(Type.Integer()) });

/** POST /api/v1/community/post/share: a post or a story (exactly one), with a line of text. */
export const ShareBody = Type.Object(
  {
    post_id: Type.Optional(IdParam),
    storyId: Type.Optional(IdParam),
    text: Type.Optional(Type.String({ maxLength: COMMUNITY.shareChars * 4 })),
  },
  { additionalProperties: false },
);
export type ShareBody = Static<typeof ShareBody>;

/** A comment on a post. */
export const PostComment = Type.Object({
  /** The comment's id. */
  id: Type.Integer(),
  postId: Type.Integer(),
  author: PostAuthor,
  comment: Type.String(),
  lang: Type.Union([Type.Literal('si'), Type.Literal('en')]),
  mentions: Type.Array(Type.Object({ userId: Type.Integer(), username: Type.String() })),
  createdAt: Type.String(),
  status: PostStatus,
  statusReason: Nullable(Type.String()),
  /** The viewer wrote it (may remove it). */
  editable: Type.Boolean(),
});
export type PostComment = Static<typeof PostComment>;

export const CommentCreateBody = Type.Object(
  { post_id: IdParam, comment: Type.String({ maxLength: COMMUNITY.commentChars * 4 }) },
  { additionalProperties: false },
);
export const PostCommentAnswer = Type.Object({ comment: PostComment });

export const PostCommentsQuery = Type.Object(
  { post_id: IdParam, page: Page },
  { additionalProperties: false },
);
/** A page of a post's comments, oldest first, and the viewer's followers for @mentions. */
export const PostCommentPage = Type.Object({
  list: Type.Array(PostComment),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
  /** Suggested for @mentions while typing; empty shows 'No Suggestions'. */
  followers: Type.Array(Type.Object({ userId: Type.Integer(), username: Type.String() })),
});
export type PostCommentPage = Static<typeof PostCommentPage>;

/** GET /api/v1/community/user: the caller's own community profile. */
export const CommunityMe = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  bio: Type.String(),
  avatar: Nullable(Avatar),
  role: Role,
});
export type CommunityMe = Static<typeof CommunityMe>;

/** GET /api/v1/community/user/profile/{id}: a person's public profile. */
export const CommunityProfile = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  bio: Type.String(),
  avatar: Nullable(Avatar),
  role: Role,
  /** When they joined (ISO 8601). */
  since: Type.String(),
  /** Their author page's id when they are an author, else null. */
  authorId: Nullable(Type.Integer()),
  posts: Type.Integer(),
  followers: Type.Integer(),
  following: Type.Integer(),
  /** Whether the viewer follows them (false for visitors and for oneself). */
  followed: Type.Boolean(),
});
export type CommunityProfile = Static<typeof CommunityProfile>;

/**
 * PUT /api/v1/community/user/profile: one's own bio. The name is the account's username, changed
 * with PATCH /api/v1/user/change-username (which issues the token that carries it).
 */
export const ProfileBody = Type.Object(
  { bio: Type.String({ maxLength: COMMUNITY.bioChars * 4 }) },
  { additionalProperties: false },
);

/** PUT /api/v1/community/user/role (admins): grants or removes a role; `id` is the user's id. */
export const RoleBody = Type.Object(
  { id: IdParam, role: Role, reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);
export const RoleAnswer = Type.Object({ userId: Type.Integer(), role: Role });

/** PUT /api/v1/community/post/{post_id}/pin (editors): the new state. */
export const PinAnswer = Type.Object({ postId: Type.Integer(), pinned: Type.Boolean() });

/** An uploaded community image (post image or profile picture). */
export const ImageAnswer = Type.Object({
  image: CommunityImage,
  /** The post it belongs to; null for a draft (uploaded to post/new) or a profile picture. */
  postId: Nullable(Type.Integer()),
});
export const ImageRemoved = Type.Object({ removed: Type.Boolean() });

export const NOTIFICATION_KINDS = ['like', 'comment', 'mention', 'share', 'follow'] as const;
/**
 * One community notification. The page words it in the reader's language from `kind` and
 * `actor` (no sentence is stored), so it reads in whichever language the reader uses.
 */
export const CommunityNotification = Type.Object({
  id: Type.Integer(),
  kind: Type.Unsafe<(typeof NOTIFICATION_KINDS)[number]>({
    type: 'string',
    enum: [...NOTIFICATION_KINDS],
  }),
  actor: Type.Object({ userId: Type.Integer(), username: Type.String(), avatar: Nullable(Avatar) }),
  /** The post it is about (null for a new follower). */
  postId: Nullable(Type.Integer()),
  /** The comment it is about, for comment and mention-in-comment. */
  commentId: Nullable(Type.Integer()),
  /** A short quote of the post or comment (plain text). */
  excerpt: Type.String(),
  createdAt: Type.String(),
  read: Type.Boolean(),
});
export type CommunityNotification = Static<typeof CommunityNotification>;
export const NotificationPage = Type.Object({
  list: Type.Array(CommunityNotification),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
  unread: Type.Integer(),
});

/** Where the caller was mentioned: a post or a comment on one. */
export const MentionItem = Type.Object({
  postId: Type.Integer(),
  commentId: Nullable(Type.Integer()),
  author: PostAuthor,
  excerpt: Type.String(),
  createdAt: Type.String(),
});
export const MentionPage = Type.Object({
  list: Type.Array(MentionItem),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
});

/** One row of the audit log (admins read it). */
export const AuditEntry = Type.Object({
  id: Type.Integer(),
  actor: Nullable(Type.Object({ userId: Type.Integer(), username: Type.String() })),
  /** e.g. 'role.grant', 'role.remove', 'post.remove', 'post.pin', 'post.unpin', 'review.decide'. */
  action: Type.String(),
  targetKind: Type.String(),
  targetId: Type.Integer(),
  reason: Nullable(Type.String()),
  detail: Type.Unknown(),
  createdAt: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntry>;
export const AuditPage = Type.Object({
  list: Type.Array(AuditEntry),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
});

/** A new episode in the reader's own feed. */
export const FeedEpisode = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  cover: Type.String(),
  coverSrcset: Type.String(),
  lang: Language,
  authorName: Type.String(),
  partNumber: Type.Integer(),
  episodeTitle: Type.String(),
  /** Why it is here: the reader follows its author or bookmarked the story. */
  reason: Type.Union([Type.Literal('author'), Type.Literal('bookmark')]),
  publishedAt: Type.String(),
});
/** GET /api/v1/feed/list/: the reader's own feed, newest first. */
export const FeedItem = Type.Union([
  Type.Object({ kind: Type.Literal('post'), post: Post }),
  Type.Object({ kind: Type.Literal('episode'), episode: FeedEpisode }),
]);
export type FeedItem = Static<typeof FeedItem>;
export const FeedPage = Type.Object({
  list: Type.Array(FeedItem),
  page: Type.Integer(),
  hasNext: Type.Boolean(),
});
export type FeedPage = Static<typeof FeedPage>;

/** A route's `{a}/{b}` image address: a = post | profile; b = the post's (or 'new') or user's id. */
export const ImageParams = Type.Object(
  {
    a: Type.Union([Type.Literal('post'), Type.Literal('profile')]),
    b: Type.String({ pattern: '^(new|[1-9][0-9]{0,9})$' }),
  },
  { additionalProperties: false },
);
/** DELETE /community/image/post/{b}?imageId: which image of the post (or draft) goes. */
export const ImageDeleteQuery = Type.Object(
  { imageId: Type.Optional(IdParam) },
  { additionalProperties: false },
);

/** The community calls' addresses (SPEC.md 7), built the same way by the server's tests and the web. */
export const communityPaths = {
  me: () => '/api/v1/community/user',
  role: () => '/api/v1/community/user/role',
  post: () => '/api/v1/community/user/post',
  postById: (id: number) => `/api/v1/community/post/${id}`,
  feed: (page = 1) => `/api/v1/community/feed?page=${page}`,
  pinned: (page = 1) => `/api/v1/community/feed/pinned?page=${page}`,
  feedPost: (id: number) => `/api/v1/community/feed/${id}`,
  timeline: (userId: number, page = 1) =>
    `/api/v1/community/user/profile/${userId}/timeline?page=${page}`,
  personalFeed: (page = 1) => `/api/v1/feed/list/?page=${page}`,
  like: () => '/api/v1/community/post/like',
  liked: (ids: readonly number[]) => `/api/v1/community/post/liked?post_id=${ids.join(',')}`,
  share: () => '/api/v1/community/post/share',
  comment: () => '/api/v1/community/post/comment',
  comments: (postId: number, page = 1) =>
    `/api/v1/community/post/comments?post_id=${postId}&page=${page}`,
  profile: (userId: number) => `/api/v1/community/user/profile/${userId}`,
  ownProfile: () => '/api/v1/community/user/profile',
  follow: () => '/api/v1/community/user/follow',
  pin: (postId: number) => `/api/v1/community/post/${postId}/pin`,
  notifications: (page = 1) => `/api/v1/community/user/notifications?page=${page}`,
  mentions: (page = 1) => `/api/v1/community/user/mentions?page=${page}`,
  audit: (page = 1) => `/api/v1/community/audit?page=${page}`,
  imageUpload: (a: 'post' | 'profile', b: number | 'new') =>
    `/api/v1/community/image/upload/${a}/${b}`,
  image: (a: 'post' | 'profile', b: number | 'new', imageId?: number) =>
    `/api/v1/community/image/${a}/${b}${imageId ? `?imageId=${imageId}` : ''}`,
  removePost: (id: number, reason?: string) =>
    `/api/v1/community/post/${id}${reason ? `?reason=${encodeURIComponent(reason)}` : ''}`,
} as const;
