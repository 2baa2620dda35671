import { useQuery, type QueryClient } from '@tanstack/react-query';
import {
  communityPaths,
  ResultCode,
  reviewPaths,
  type FlagAnswer,
  type CommunityImage,
  type CommunityMe,
  type CommunityNotification,
  type CommunityProfile,
  type FeedPage,
  type LikeAnswer,
  type Post,
  type PostComment,
  type PostCommentPage,
  type PostPage,
  type Role,
} from '@kathamala/domain';
import { ApiError, apiRequest } from '../../api/client.ts';
import { getToken } from '../auth/session.ts';
import type { FeedTab } from './paths.ts';

/*
 * The community calls the pages make. Query keys are the API paths (the server keys the boot
 * data of the public pages, the feed, a post, a profile and its timeline, by the same strings).
 * What belongs to the viewer (their role, their likes, their feed, their notifications) is
 * asked for only once the session is known, and dropped when it changes (isCommunityPersonalKey).
 */

const get =
  <T>(path: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    apiRequest<T>(path, { signal });

/** The path a feed tab's page is read from. */
export const feedPath = (tab: FeedTab, page: number): string =>
  tab === 'pinned'
    ? communityPaths.pinned(page)
    : tab === 'following'
      ? communityPaths.personalFeed(page)
      : communityPaths.feed(page);

/** A page of any tab as one shape: the Following tab also carries new episodes. */
export type FeedAnswer = PostPage | FeedPage;

/** A page of posts (a feed tab's, a timeline's), read from its path. */
export const useFeedPage = (path: string, enabled = true) =>
  useQuery({ queryKey: [path], queryFn: get<FeedAnswer>(path), enabled });

/** The viewer's community profile with their role; never for visitors. */
export const useCommunityMe = (enabled: boolean) =>
  useQuery({
    queryKey: [communityPaths.me()],
    queryFn: get<CommunityMe>(communityPaths.me()),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Editors and admins review; admins also grant roles. */
export const canReview = (role: Role | undefined): boolean => role === 'editor' || role === 'admin';

/**
 * Which of these posts the viewer likes: the feed's answers are the same for everyone (and
 * cached), so the viewer's likes come apart.
 */
export const useLiked = (ids: readonly number[], enabled: boolean) => {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const path = communityPaths.liked(sorted);
  return useQuery({
    queryKey: [path],
    queryFn: get<{ liked: number[] }>(path),
    enabled: enabled && sorted.length > 0,
    staleTime: 0,
    retry: false,
  });
};

export const usePost = (postId: number) => {
  const path = communityPaths.postById(postId);
  return useQuery({ queryKey: [path], queryFn: get<{ post: Post }>(path), retry: false });
};

export const useProfile = (userId: number) => {
  const path = communityPaths.profile(userId);
  // Whether the viewer follows them is in the answer: the server's (a visitor's) is asked again.
  return useQuery({
    queryKey: [path],
    queryFn: get<CommunityProfile>(path),
    retry: false,
    staleTime: 0,
  });
};

export const useTimeline = (userId: number, page: number) => {
  const path = communityPaths.timeline(userId, page);
  // The owner sees their own posts waiting for review here: asked afresh each time.
  return useQuery({ queryKey: [path], queryFn: get<PostPage>(path), staleTime: 0 });
};

export const useComments = (postId: number, page: number, enabled: boolean) => {
  const path = communityPaths.comments(postId, page);
  return useQuery({
    queryKey: [path],
    queryFn: get<PostCommentPage>(path),
    enabled,
    staleTime: 0,
  });
};

/** The viewer's community notifications (likes, comments, mentions, shares, follows). */
export const useCommunityNotifications = (enabled: boolean) =>
  useQuery({
    queryKey: [communityPaths.notifications()],
    queryFn: ({ signal }) =>
      apiRequest<{ list: CommunityNotification[]; unread: number }>(
        communityPaths.notifications(),
        { signal },
      ).catch((error: unknown) => {
        // As the drawer's other list: a failure is a silent empty list (SPEC.md 8).
        if (signal.aborted) throw error;
        return { list: [] as CommunityNotification[], unread: 0 };
      }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** Posts a text with the ids of the images uploaded for it. */
export const createPost = (text: string, images: number[]) =>
  apiRequest<{ post: Post }>(communityPaths.post(), { method: 'POST', body: { text, images } });

/** Sets the viewer's like to `liked`: the state is sent, so a repeated tap never undoes it. */
export const setLike = (postId: number, liked: boolean) =>
  apiRequest<LikeAnswer>(communityPaths.like(), {
    method: 'PUT',
    body: { post_id: postId, liked },
  });

export const sharePost = (postId: number, text: string) =>
  apiRequest<{ post: Post }>(communityPaths.share(), {
    method: 'POST',
    body: text.trim() ? { post_id: postId, text } : { post_id: postId },
  });

export const commentOnPost = (postId: number, comment: string) =>
  apiRequest<{ comment: PostComment }>(communityPaths.comment(), {
    method: 'POST',
    body: { post_id: postId, comment },
  });

/** Deletes one's own post; an editor removing another's gives a reason. */
export const deletePost = (postId: number, reason?: string) =>
  apiRequest<{ removed: boolean }>(
    reason
      ? `${communityPaths.postById(postId)}?reason=${encodeURIComponent(reason)}`
      : communityPaths.postById(postId),
    { method: 'DELETE' },
  );

export const togglePin = (postId: number) =>
  apiRequest<{ postId: number; pinned: boolean }>(communityPaths.pin(postId), { method: 'PUT' });

export const flagPost = (postId: number, reason: string) =>
  apiRequest<FlagAnswer>(reviewPaths.flagPost(), {
    method: 'PUT',
    body: { post_id: postId, reason },
  });

export const flagProfile = (userId: number, reason: string) =>
  apiRequest<FlagAnswer>(reviewPaths.flagProfile(), {
    method: 'POST',
    body: { id: userId, reason },
  });

/** One's own bio (the name is the account's username, changed on its own). */
export const saveProfile = (body: { bio: string }) =>
  apiRequest<CommunityProfile>(communityPaths.ownProfile(), { method: 'PUT', body });

export const setFollowing = (userId: number, following: boolean) =>
  apiRequest<{ following: boolean; followers: number }>(communityPaths.follow(), {
    method: 'PUT',
    body: { followed_id: userId, following },
  });

export const setRole = (userId: number, role: Role) =>
  apiRequest<{ userId: number; role: Role }>(communityPaths.role(), {
    method: 'PUT',
    body: { id: userId, role },
  });

/**
 * Uploads an image (multipart, field `image`): a post's draft image (`post`, 'new') before the
 * post exists, or the viewer's profile picture.
 */
export async function uploadImage(
  target: 'post' | 'profile',
  id: number | 'new',
  file: Blob,
  name: string,
): Promise<{ image: CommunityImage }> {
  const form = new FormData();
  form.append('image', file, name);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(communityPaths.imageUpload(target, id), {
      method: 'POST',
      headers,
      body: form,
    });
  } catch {
    throw new ApiError(0, ResultCode.network, 'network');
  }
  const payload = (await res.json().catch(() => null)) as {
    code?: number;
    message?: string;
    object?: { image: CommunityImage };
  } | null;
  if (res.ok && payload?.code === ResultCode.ok && payload.object) return payload.object;
  throw new ApiError(
    res.status,
    typeof payload?.code === 'number' ? payload.code : ResultCode.internal,
    typeof payload?.message === 'string' ? payload.message : '',
  );
}

/** Removes a draft image of a post not yet written (the writer took it out). */
export const deleteDraftImage = (imageId: number) =>
  apiRequest<unknown>(communityPaths.image('post', 'new', imageId), { method: 'DELETE' });

/** After the viewer changed something: the lists and the post show the server's state. */
export const refreshCommunity = (client: QueryClient): Promise<unknown> =>
  client.invalidateQueries({
    predicate: (q) => {
      const key = q.queryKey[0];
      return (
        typeof key === 'string' &&
        (key.startsWith('/api/v1/community/') || key.startsWith('/api/v1/feed/'))
      );
    },
  });

/** Paths whose answers belong to the viewer (dropped when the session changes). */
export const isCommunityPersonalKey = (key: unknown): boolean =>
  typeof key === 'string' &&
  (key === communityPaths.me() ||
    key.startsWith('/api/v1/community/post/liked') ||
    key.startsWith('/api/v1/feed/list/') ||
    key.startsWith('/api/v1/community/user/notifications') ||
    key.startsWith('/api/v1/community/review') ||
    key.startsWith('/api/v1/community/audit'));
