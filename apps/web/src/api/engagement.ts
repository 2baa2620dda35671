import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  COMMENT_PLATFORM,
  VIEW_MEDIUM,
  type Comment,
  type Follower,
  type RateAnswer,
  type StoryDetails,
} from '@kathamala/domain';
import { getToken, peekClaims } from '../features/auth/session.ts';
import { apiRequest } from './client.ts';

/*
 * What a logged-in reader does on the story page: rate, bookmark, progress, views and comments.
 * None of it is server-rendered; the hooks run only for readers. Query keys are [path, viewer]:
 * the answers carry per-reader fields (`editable`, followers), so another account in the same tab
 * never sees the previous one's.
 */

/** Who is asking, for query keys: the token's subject, or '' without one. */
export const viewerKey = (): string => {
  const token = getToken();
  const sub = token ? (peekClaims(token) as { sub?: unknown }).sub : undefined;
  return typeof sub === 'string' || typeof sub === 'number' ? String(sub) : '';
};

export interface CommentsData {
  comments: Comment[];
  followers: Follower[];
}

const EMPTY_COMMENTS: CommentsData = { comments: [], followers: [] };

/** The key of an episode's comments for the current reader. */
export const commentsKey = (storyId: number, episode: number) => [
  apiPaths.comments(storyId, episode),
  viewerKey(),
];
/** The key of a comment's replies for the current reader. */
export const repliesKey = (commentId: number) => [apiPaths.replies(commentId), viewerKey()];

/* Ratings. */

/** Sends a rating ('0' to '5' in half steps, as a string: SPEC.md 3). */
export const rateStory = (storyId: number, rating: number) =>
  apiRequest<RateAnswer>(apiPaths.rate(storyId), {
    method: 'POST',
    body: { rating: String(rating) },
  });

const partKeyPrefix = (storyId: number) => apiPaths.part(storyId, 0).replace(/0$/, '');

/** After a rating: every loaded part of the story shows the new rating and the reader's own. */
export const applyRating = (client: QueryClient, storyId: number, answer: RateAnswer): void => {
  client.setQueriesData<StoryDetails>(
    {
      predicate: (q) =>
        typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(partKeyPrefix(storyId)),
    },
    (old) =>
      old && {
        ...old,
        story: { ...old.story, rating: answer.rating, ratingCount: answer.ratingCount },
        userRating: answer.userRating,
      },
  );
};

/* Bookmarks. */

/** Adds (true) or removes (false) a bookmark; the answer is the state to show (SPEC.md 4). */
export const setBookmark = (storyId: number, on: boolean) =>
  apiRequest<{ bookmarked: boolean }>(apiPaths.bookmark(storyId, on ? 1 : 0));

/** After a bookmark toggle: the loaded parts and the /bookmarks list follow the server. */
export const applyBookmark = (client: QueryClient, storyId: number, bookmarked: boolean): void => {
  client.setQueriesData<StoryDetails>(
    {
      predicate: (q) =>
        typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(partKeyPrefix(storyId)),
    },
    (old) => old && { ...old, bookmarked },
  );
  void client.invalidateQueries({ queryKey: [apiPaths.bookmarks()] });
};

/* Reading progress and views. */

/**
 * Saves where the reader is. `keepalive` lets the request outlive the page (leaving, tab hidden):
 * sendBeacon cannot carry the Authorization header, fetch with keepalive can. Failures are
 * silent: progress is a convenience, never an error on the page.
 */
export async function saveProgress(
  body: { storyId: number; partNumber: number; position: number },
  keepalive = false,
): Promise<void> {
  const token = getToken();
  if (!token) return;
  try {
    await fetch(apiPaths.progress(), {
      method: 'POST',
      keepalive,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });
  } catch {
    // Offline or the page is going away: the next save carries the position.
  }
}

/** Counts a view of a part (SPEC.md 4: 60 s after it loads, only with a token). */
export const recordView = (storyId: number, partNumber: number) =>
  apiRequest<{ counted: boolean }>(apiPaths.view(storyId), {
    method: 'POST',
    body: { medium: VIEW_MEDIUM, partNumber },
  });

/* Comments and replies. */

/** An episode's comments and the reader's followers; a failed load is an empty list (SPEC.md 8). */
export const useComments = (storyId: number, episode: number, enabled: boolean) =>
  useQuery({
    queryKey: commentsKey(storyId, episode),
    queryFn: ({ signal }) =>
      apiRequest<CommentsData>(apiPaths.comments(storyId, episode), { signal }).catch(
        (error: unknown) => {
          if (signal.aborted) throw error;
          return EMPTY_COMMENTS;
        },
      ),
    enabled,
    staleTime: 30_000,
    retry: false,
  });

/** A comment's replies, loaded when opened; a failed load is an empty list (SPEC.md 8). */
export const useReplies = (commentId: number, enabled: boolean) =>
  useQuery({
    queryKey: repliesKey(commentId),
    queryFn: ({ signal }) =>
      apiRequest<{ list: Comment[] }>(apiPaths.replies(commentId), { signal }).catch(
        (error: unknown) => {
          if (signal.aborted) throw error;
          return { list: [] as Comment[] };
        },
      ),
    enabled,
    staleTime: 30_000,
    retry: false,
  });

/** Posts a comment on an episode; the new comment goes first in the list. */
export const usePostComment = (storyId: number, episode: number, episodeId: number) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (feedback: string) =>
      apiRequest<{ comment: Comment }>(apiPaths.comment(), {
        method: 'POST',
        body: { storyId, episodeId, feedback, platform: COMMENT_PLATFORM },
      }),
    onSuccess: ({ comment }) => {
      client.setQueryData<CommentsData>(commentsKey(storyId, episode), (old) => ({
        ...(old ?? EMPTY_COMMENTS),
        comments: [
          comment,
          ...(old?.comments ?? []).filter((c) => c.commentId !== comment.commentId),
        ],
      }));
    },
  });
};

/** Posts a reply; it joins the opened replies and the comment's count goes up. */
export const usePostReply = (storyId: number, episode: number, commentId: number) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reply: string) =>
      apiRequest<{ comment: Comment }>(apiPaths.reply(), {
        method: 'POST',
        body: { commentId, reply, platform: COMMENT_PLATFORM },
      }),
    onSuccess: ({ comment }) => {
      client.setQueryData<{ list: Comment[] }>(repliesKey(commentId), (old) => ({
        list: [...(old?.list ?? []).filter((c) => c.commentId !== comment.commentId), comment],
      }));
      client.setQueryData<CommentsData>(commentsKey(storyId, episode), (old) =>
        old
          ? {
              ...old,
              comments: old.comments.map((c) =>
                c.commentId === commentId ? { ...c, repliesCount: c.repliesCount + 1 } : c,
              ),
            }
          : old,
      );
    },
  });
};

/**
 * Removes the reader's own comment or reply (`parentId` for a reply). A failure only stops the
 * spinner (SPEC.md 8), so the caller ignores it.
 */
export const useRemoveComment = (storyId: number, episode: number) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { commentId: number; parentId?: number }) =>
      apiRequest<{ removed: boolean }>(apiPaths.comment(), {
        method: 'DELETE',
        body: { storyId, commentId: v.commentId },
      }),
    onSuccess: (_answer, v) => {
      if (v.parentId === undefined) {
        client.setQueryData<CommentsData>(commentsKey(storyId, episode), (old) =>
          old ? { ...old, comments: old.comments.filter((c) => c.commentId !== v.commentId) } : old,
        );
        return;
      }
      const parentId = v.parentId;
      client.setQueryData<{ list: Comment[] }>(repliesKey(parentId), (old) =>
        old ? { list: old.list.filter((c) => c.commentId !== v.commentId) } : old,
      );
      client.setQueryData<CommentsData>(commentsKey(storyId, episode), (old) =>
        old
          ? {
              ...old,
              comments: old.comments.map((c) =>
                c.commentId === parentId
                  ? { ...c, repliesCount: Math.max(0, c.repliesCount - 1) }
                  : c,
              ),
            }
          : old,
      );
    },
  });
};

/** Reports a comment or reply for the editors' review (the same reader twice counts once). */
export const reportComment = (commentId: number, reason: string) =>
  apiRequest<{ reported: boolean }>(apiPaths.report(), {
    method: 'POST',
    body: { commentId, reason },
  });
