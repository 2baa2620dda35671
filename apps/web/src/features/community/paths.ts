/** Page addresses of the community area (the API's are communityPaths in @kathamala/domain). */
export type FeedTab = 'everyone' | 'following' | 'pinned';

export const FEED_TABS: readonly FeedTab[] = ['everyone', 'following', 'pinned'];

/** The tab an address names (?tab=following); anything else is Everyone. */
export const parseTab = (value: string | null): FeedTab =>
  FEED_TABS.find((t) => t === value) ?? 'everyone';

export const communityPages = {
  feed: (tab: FeedTab = 'everyone', page = 1) => {
    const q = new URLSearchParams();
    if (tab !== 'everyone') q.set('tab', tab);
    if (page > 1) q.set('page', String(page));
    const s = q.toString();
    return s ? `/community?${s}` : '/community';
  },
  post: (postId: number) => `/community/post/${postId}`,
  /** A person's page: the existing /profile/{id}/ (mentions in story comments link there). */
  profile: (userId: number) => `/profile/${userId}/`,
  reviews: () => '/community/reviews',
  admin: () => '/community/admin',
} as const;
