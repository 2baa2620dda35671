import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  type BookmarkItem,
  type ContinueItem,
  type Notification,
} from '@kathamala/domain';
import { apiRequest } from './client.ts';

/*
 * The reader's own engagement data around reading: bookmarks, Continue reading, notifications,
 * follows and Web Push. Everything here is personal (needs a token) except an author's follower
 * count; none of it is server-rendered, so the hooks only run once the session is known.
 */

/** Whom the viewer follows (GET following), as engagement.ts FollowingItem. */
export interface FollowingItem {
  userId: number;
  username: string;
  authorId: number | null;
  authorName: string | null;
}

/** An author's follower count and whether the viewer follows them (engagement.ts FollowState). */
export interface FollowState {
  userId: number | null;
  following: boolean;
  followers: number;
}

/** The answer to a follow toggle. */
export interface FollowAnswer {
  following: boolean;
  followers: number;
}

/** How often the menu badge asks for the unread count while the page is visible. */
export const UNREAD_POLL_MS = 60_000;

const get =
  <T>(path: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    apiRequest<T>(path, { signal });

/** The reader's bookmarks, newest first, each with where they stopped. */
export const useBookmarks = (enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.bookmarks()],
    queryFn: get<{ list: BookmarkItem[] }>(apiPaths.bookmarks()),
    enabled,
    staleTime: 0,
  });

/** Continue reading on home: a missing list is an empty row, never an error on the page. */
export const useContinueReading = (enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.continueReading()],
    queryFn: ({ signal }) =>
      apiRequest<{ list: ContinueItem[] }>(apiPaths.continueReading(), { signal }).catch(
        (error: unknown) => {
          if (signal.aborted) throw error;
          return { list: [] };
        },
      ),
    enabled,
    staleTime: 0,
  });

/**
 * The unread count for the menu badge: asked on load, when the window regains focus and every
 * minute while the page is visible (TanStack pauses the interval in a hidden tab). Never for
 * visitors. A failed check shows no badge rather than an error.
 */
export const useUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.unreadNotifications()],
    queryFn: ({ signal }) =>
      apiRequest<{ unread: number }>(apiPaths.unreadNotifications(), { signal }).catch(
        (error: unknown) => {
          if (signal.aborted) throw error;
          return { unread: 0 };
        },
      ),
    enabled,
    staleTime: 0,
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    retry: false,
  });

/**
 * The notifications, newest first, loaded each time the drawer opens. The call marks them read,
 * so the badge is cleared once it answers. Failures are a silent empty list (SPEC.md 8).
 */
export const useNotifications = (open: boolean) => {
  const client = useQueryClient();
  return useQuery({
    queryKey: [apiPaths.notifications()],
    queryFn: async ({ signal }) => {
      try {
        const answer = await apiRequest<{ notifications: Notification[]; unread: number }>(
          apiPaths.notifications(),
          { signal },
        );
        client.setQueryData([apiPaths.unreadNotifications()], { unread: 0 });
        return answer;
      } catch (error) {
        if (signal.aborted) throw error;
        return { notifications: [] as Notification[], unread: 0 };
      }
    },
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
};

/** Whom the viewer follows, for /account. */
export const useFollowing = (enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.following()],
    queryFn: get<{ list: FollowingItem[] }>(apiPaths.following()),
    enabled,
    staleTime: 0,
  });

/** An author's follower count (for everyone) and whether the viewer follows them. */
export const useAuthorFollow = (authorId: number, enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.authorFollow(authorId)],
    queryFn: get<FollowState>(apiPaths.authorFollow(authorId)),
    enabled,
    staleTime: 0,
    retry: false,
  });

/**
 * Follows a user (authors included) or stops following, as the reader asked: the state itself
 * is sent, so a repeated or late tap never undoes it. The answer is the new state.
 */
export const setFollow = (userId: number, following: boolean) =>
  apiRequest<FollowAnswer>(apiPaths.follow(), {
    method: 'PUT',
    body: { followed_id: userId, following },
  });

/** After a follow or unfollow: the author's page and the following list show the server's answer. */
export const afterFollow = (
  client: QueryClient,
  authorId: number | null,
  answer: FollowAnswer,
): Promise<unknown> => {
  if (authorId !== null)
    client.setQueryData<FollowState>([apiPaths.authorFollow(authorId)], (old) =>
      old ? { ...old, ...answer } : old,
    );
  return client.invalidateQueries({ queryKey: [apiPaths.following()] });
};

/** The server's VAPID public key for Web Push. */
export const fetchPushKey = () => apiRequest<{ publicKey: string }>(apiPaths.pushKey());

/** Keeps this browser's push subscription on the server. */
export const savePushSubscription = (body: {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}) => apiRequest<{ subscribed: boolean }>(apiPaths.pushSubscription(), { method: 'POST', body });

/** Forgets this browser's push subscription on the server. */
export const deletePushSubscription = (endpoint: string) =>
  apiRequest<{ subscribed: boolean }>(apiPaths.pushSubscription(), {
    method: 'DELETE',
    body: { endpoint },
  });

/** Paths whose answers belong to the logged-in reader (dropped when the session changes). */
export const isSocialPersonalKey = (key: unknown): boolean =>
  typeof key === 'string' &&
  (key === apiPaths.bookmarks() ||
    key === apiPaths.continueReading() ||
    key === apiPaths.notifications() ||
    key === apiPaths.unreadNotifications() ||
    key === apiPaths.following() ||
    /^\/api\/v1\/community\/author\/\d+\/follow$/.test(key));
