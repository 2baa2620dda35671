import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  REFRESH_DEVICE_ID,
  type AuthorProfile,
  type Category,
  type Me,
  type OngoingFilter,
  type SortBy,
  type StoryDetails,
  type StoryListItem,
  type StoryPage,
  type TrendingItem,
  type UpcomingItem,
} from '@kathamala/domain';
import { apiRequest, fetchJson, isApiError } from './client.ts';
import { isSocialPersonalKey } from './social.ts';
import { isCommunityPersonalKey } from '../features/community/api.ts';

/** Query keys are exactly `[apiPath]`, the same strings the server keys its boot data by. */
const get =
  <T>(path: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    apiRequest<T>(path, { signal });

export type { OngoingFilter };
export interface ListParams {
  page?: number;
  category?: string;
  sortBy?: SortBy;
  ongoing?: OngoingFilter;
}

export const useStoryList = (params: ListParams) => {
  const path = apiPaths.listV2(params);
  return useQuery({
    queryKey: [path],
    queryFn: get<StoryPage>(path),
    placeholderData: keepPreviousData,
  });
};

export const useTrending = () => {
  const path = apiPaths.trending();
  return useQuery({ queryKey: [path], queryFn: get<{ trending: TrendingItem[] }>(path) });
};

export const useUpcoming = () => {
  const path = apiPaths.upcoming();
  return useQuery({ queryKey: [path], queryFn: get<{ upcomingStories: UpcomingItem[] }>(path) });
};

export const usePremium = () => {
  const path = apiPaths.premium();
  return useQuery({ queryKey: [path], queryFn: get<{ premium: StoryListItem[] }>(path) });
};

export const useAuthorStories = (authorId: number | undefined) => {
  const path = apiPaths.authorStories(authorId ?? 0);
  return useQuery({
    queryKey: [path],
    queryFn: get<{ author: AuthorProfile; stories: StoryListItem[] }>(path),
    enabled: authorId !== undefined,
  });
};

export const useSearch = (query: string, page: number) => {
  const path = apiPaths.search(query, page);
  return useQuery({
    queryKey: [path],
    queryFn: get<StoryPage>(path),
    enabled: query.trim().length > 0,
    placeholderData: keepPreviousData,
  });
};

export const usePreview = (storyId: number, enabled = true) => {
  const path = apiPaths.preview(storyId);
  return useQuery({ queryKey: [path], queryFn: get<StoryDetails>(path), enabled });
};

/** A part with its text: needs a token; 403 code 8 means the reader must subscribe. */
export const usePart = (storyId: number, partNumber: number, enabled: boolean) => {
  const path = apiPaths.part(storyId, partNumber);
  return useQuery({ queryKey: [path], queryFn: get<StoryDetails>(path), enabled, staleTime: 0 });
};

export const useMe = (enabled: boolean) => {
  const path = apiPaths.me();
  return useQuery({ queryKey: [path], queryFn: get<Me>(path), enabled });
};

export const useCategories = () => {
  const path = apiPaths.categories();
  return useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => fetchJson<Category[]>(path, signal),
    staleTime: Infinity,
  });
};

export const login = (body: { email: string; password: string }) =>
  apiRequest<{ accesstoken: string }>(apiPaths.login(), {
    method: 'POST',
    body,
    sessionGuard: false,
  });

export const signup = (body: { email: string; password: string; username: string }) =>
  apiRequest<{ accesstoken: string }>(apiPaths.signup(), {
    method: 'POST',
    body,
    sessionGuard: false,
  });

export const refreshToken = () =>
  apiRequest<{ accesstoken: string }>(apiPaths.refresh(), {
    method: 'POST',
    body: { deviceId: REFRESH_DEVICE_ID },
  });

export const logoutCall = () => apiRequest<unknown>(apiPaths.logout(), { sessionGuard: false });

export const changeUsername = (username: string) =>
  apiRequest<{ username: string }>(apiPaths.changeUsername(), {
    method: 'PATCH',
    body: { username },
  });

/** Data that belongs to the logged-in reader: dropped whenever the session changes. */
export const isPersonalKey = (key: unknown): boolean =>
  typeof key === 'string' &&
  (/\/part\/number\//.test(key) ||
    key === apiPaths.me() ||
    // The author's own lists and episodes (authoring.ts): /api/v1/author/.../webapp.
    /^\/api\/v1\/author\/.*\/webapp$/.test(key) ||
    // Bookmarks, Continue reading, notifications and follows (social.ts).
    isSocialPersonalKey(key) ||
    // The viewer's role, likes, own feed, notifications, the queue (community/api.ts).
    isCommunityPersonalKey(key));

export const dropPersonalData = (client: QueryClient): void =>
  client.removeQueries({ predicate: (q) => isPersonalKey(q.queryKey[0]) });

/** Retries only what may succeed on a second try: no answer, or a server fault. */
export const shouldRetry = (failureCount: number, error: unknown): boolean =>
  failureCount < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500);
