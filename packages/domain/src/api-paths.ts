import { DEFAULT_PAGE } from './constants.ts';
import type { SortBy } from './schemas/stories.ts';
import {
  DEFAULT_STATS_PERIOD,
  type LeaderboardBy,
  type LeaderboardPeriod,
  type StatsPeriod,
} from './schemas/stats.ts';

/**
 * Canonical API paths. The server keys prefetched page data by these strings and the web
 * client uses them as query keys, so both must build them the same way.
 */
export const apiPaths = {
  listV2: (
    q: {
      page?: number;
      category?: string;
      sortBy?: SortBy;
      ongoing?: 'both' | 'true' | 'false';
    } = {},
  ) =>
    `/api/v1/story/listV2/?page=${q.page ?? DEFAULT_PAGE}&category=${encodeURIComponent(q.category ?? 'all')}&sortBy=${q.sortBy ?? 'rate'}&ongoing=${q.ongoing ?? 'both'}`,
  upcoming: () => '/api/v1/story/list/upcoming/',
  trending: () => '/api/v1/story/list/trending/',
  premium: () => '/api/v1/story/premium/list/',
  authorStories: (authorId: number) => `/api/v1/author/${authorId}/story/list/`,
  search: (query: string, page = DEFAULT_PAGE) =>
    `/api/v1/story/search/?query=${encodeURIComponent(query)}&page=${page}`,
  preview: (storyId: number) => `/api/v1/story/${storyId}/preview/`,
  part: (storyId: number, n: number) => `/api/v1/story/${storyId}/part/number/${n}`,
  registerAuthor: () => '/api/v1/author/register/',
  publishStory: () => '/api/v1/author/publish/story/webapp',
  publishEpisode: () => '/api/v1/author/publish/episode/webapp',
  ownStories: () => '/api/v1/author/story/list/webapp',
  ownEpisodes: (storyId: number) => `/api/v1/author/episodes/${storyId}/webapp`,
  /** GET the episode with its text; DELETE removes it (its part number is never reused). */
  ownEpisode: (episodeId: number) => `/api/v1/author/episode/${episodeId}/webapp`,
  authorPage: (authorId: number) => `/author/${authorId}/`,
  seasons: () => '/api/v1/series/season/list/',
  uploadCover: (storyId: number) => `/api/v1/upload-story-cover/upload/${storyId}`,
  signup: () => '/api/v1/user/signup',
  login: () => '/api/v1/user/login',
  refresh: () => '/api/v1/user/refresh/token/',
  logout: () => '/api/v1/user/logout',
  changeUsername: () => '/api/v1/user/change-username',
  me: () => '/api/v1/user/me',
  rate: (storyId: number) => `/api/v1/story/rate/${storyId}/`,
  bookmark: (storyId: number, state: 0 | 1) => `/api/v1/story/bookmark/${storyId}/${state}`,
  bookmarks: () => '/api/v1/story/bookmark/list',
  /** POST {storyId, partNumber, position}: where the reader is now. */
  progress: () => '/api/v1/story/progress/',
  /** GET: Continue reading, most recent first. */
  continueReading: () => '/api/v1/story/progress/list',
  view: (storyId: number) => `/api/v1/stats/story/${storyId}/view/`,
  comments: (storyId: number, episode: number) =>
    `/api/v1/story/comments/v2/${storyId}/?episode=${episode}`,
  /** POST a comment; DELETE {storyId, commentId} removes one. */
  comment: () => '/api/v1/story/comment/',
  reply: () => '/api/v1/story/comment/reply/',
  replies: (commentId: number) => `/api/v1/story/comment/reply/${commentId}/list/`,
  report: () => '/api/v1/story/comment/report/',
  follow: () => '/api/v1/community/user/follow',
  /** GET: whom the viewer follows. */
  following: () => '/api/v1/community/user/following',
  /** GET: a reader's public profile (name, since, author page if any). */
  userProfile: (userId: number) => `/api/v1/community/user/profile/${userId}`,
  /** The page of a person a comment mentions: their author page, or their reader profile. */
  profilePage: (userId: number) => `/profile/${userId}/`,
  /** GET: an author's followers count and whether the viewer follows them. */
  authorFollow: (authorId: number) => `/api/v1/community/author/${authorId}/follow`,
  notifications: () => '/api/v1/firebase/notifications/',
  unreadNotifications: () => '/api/v1/firebase/notifications/unread',
  pushKey: () => '/api/v1/push/key',
  /** POST a browser's push subscription; DELETE {endpoint} removes it. */
  pushSubscription: () => '/api/v1/push/subscription',
  /** POST {mobile, appId}: a code by SMS; answers refId. */
  memberSubscribe: () => '/api/v1/member/subscribe/',
  /** POST {mfaCode, appId, refId}: the code typed on the wall activates the membership. */
  memberVerify: () => '/api/v1/member/verify/',
  memberDetails: () => '/api/v1/member/details/',
  /** POST {appId}: leave; UNREG goes to the carrier. */
  memberUnsubscribe: () => '/api/v1/member/unsubscribe/',
  /** GET toggles the reader's SMS alert for a story. */
  alert: (storyId: number) => `/api/v1/story/alert/${storyId}/`,
  /** POST {email}: a confirmation e-mail with a signed link. */
  mailRequest: () => '/api/v1/member/mail/request/',
  /** POST {token, subscribed}: works without login (the link in an e-mail). */
  mailSubscribe: () => '/api/v1/member/mail/subscribe/',
  /** GET (login): whether the account's address is on the mailing list. */
  mailStatus: () => '/api/v1/member/mail/status',
  /** GET (author): object.stats for the period ('7', '30', '90', 'all'). */
  statsAuthor: (period: StatsPeriod = DEFAULT_STATS_PERIOD) =>
    `/api/v1/stats/author/?period=${period}`,
  /** GET (author): object.summary, totals and their change against the period before. */
  statsSummary: (period: StatsPeriod = DEFAULT_STATS_PERIOD) =>
    `/api/v1/stats/summaryV2/?period=${period}`,
  /** GET (public): object.authors, the author rankings. */
  statsAuthors: (q: { by?: LeaderboardBy; period?: LeaderboardPeriod } = {}) =>
    `/api/v1/stats/authors/?by=${q.by ?? 'reads'}&period=${q.period ?? 'week'}`,
  /** The carrier's notifications (REG, UNREG, charges, SMS from phones), signed. */
  carrierWebhook: () => '/api/v1/carrier/notify/',
  categories: () => '/categories.json',
  jwks: () => '/.well-known/jwks.json',
} as const;
