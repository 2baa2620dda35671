import { useQuery, type QueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  ResultCode,
  type CoverAnswer,
  type EpisodeInput,
  type EpisodeStatus,
  type OwnEpisode,
  type OwnStory,
  type StoryInput,
} from '@kathamala/domain';
import { getToken } from '../features/auth/session.ts';
import { ApiError, apiRequest } from './client.ts';

/** The answer to a saved episode: its id, where it stands, and its part number once out. */
export interface SavedEpisode {
  episodeId: number;
  status: EpisodeStatus;
  partNumber: number | null;
  publishAt: string | null;
}

/** An episode with its text, as its author edits it. */
export type OwnEpisodeFull = OwnEpisode & { content: string };

const get =
  <T>(path: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    apiRequest<T>(path, { signal });

/** The logged-in author's own stories, drafts included, with counts (personal: needs a token). */
export const useOwnStories = (enabled = true) =>
  useQuery({
    queryKey: [apiPaths.ownStories()],
    queryFn: get<{ stories: OwnStory[] }>(apiPaths.ownStories()),
    enabled,
    staleTime: 0,
  });

/** Every episode of one of the author's stories, in every status. */
export const useOwnEpisodes = (storyId: number | null) =>
  useQuery({
    queryKey: [apiPaths.ownEpisodes(storyId ?? 0)],
    queryFn: get<{ episodes: OwnEpisode[] }>(apiPaths.ownEpisodes(storyId ?? 0)),
    enabled: storyId !== null,
    staleTime: 0,
  });

/** One episode with its text. Never cached between visits: the editor wants the server's copy. */
export const useOwnEpisode = (episodeId: number | null) =>
  useQuery({
    queryKey: [apiPaths.ownEpisode(episodeId ?? 0)],
    queryFn: get<{ episode: OwnEpisodeFull }>(apiPaths.ownEpisode(episodeId ?? 0)),
    enabled: episodeId !== null,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** Makes the logged-in user an author; the answer carries a fresh token with `author: true`. */
export const registerAuthor = (body: { name: string; bio: string }) =>
  apiRequest<{ authorId: number; appId: string; keyword: string; accesstoken: string }>(
    apiPaths.registerAuthor(),
    { method: 'POST', body },
  );

/** Creates a story (no storyId) or changes the fields given of the author's own. */
export const saveStory = (story: StoryInput) =>
  apiRequest<{ storyId: number }>(apiPaths.publishStory(), { method: 'POST', body: { story } });

/** Creates (no episodeId) or updates an episode. */
export const saveEpisode = (episode: EpisodeInput, signal?: AbortSignal) =>
  apiRequest<SavedEpisode>(apiPaths.publishEpisode(), {
    method: 'POST',
    body: { episode },
    signal,
  });

/** Deletes an episode for good; its part number is never given to another. */
export const deleteEpisode = (episodeId: number) =>
  apiRequest<{ deleted: boolean }>(apiPaths.ownEpisode(episodeId), { method: 'DELETE' });

// Browsers refuse keepalive requests whose bodies add up to more than 64 KiB.
const KEEPALIVE_MAX_BYTES = 60 * 1024;

/**
 * Saves an episode while the page is going away (tab hidden, closed or reloaded): a keepalive
 * request outlives the page. A long episode is too big for keepalive; then it is sent as a
 * plain request, which may be cut off, and the browser's copy covers it until the next visit.
 */
export function saveEpisodeOnLeave(episode: EpisodeInput): Promise<SavedEpisode | null> {
  const token = getToken();
  if (!token) return Promise.resolve(null);
  const body = JSON.stringify({ episode });
  const keepalive = new Blob([body]).size <= KEEPALIVE_MAX_BYTES;
  return fetch(apiPaths.publishEpisode(), {
    method: 'POST',
    keepalive,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body,
  })
    .then(async (res) => {
      const payload = (await res.json().catch(() => null)) as {
        code?: number;
        object?: SavedEpisode;
      } | null;
      return res.ok && payload?.code === ResultCode.ok && payload.object ? payload.object : null;
    })
    .catch(() => null);
}

/**
 * Uploads a cover (multipart, field `image`). Resolves with the new cover's address (with a
 * version that changes with its bytes) when the server gives one; otherwise throws an ApiError
 * with the server's message (status 0 when the network failed).
 */
export async function uploadCover(
  storyId: number,
  file: Blob,
  fileName: string,
): Promise<{ cover: string | null }> {
  const form = new FormData();
  form.append('image', file, fileName);
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(apiPaths.uploadCover(storyId), { method: 'POST', headers, body: form });
  } catch {
    throw new ApiError(0, ResultCode.network, 'network');
  }
  const payload = (await res.json().catch(() => null)) as {
    code?: number;
    message?: string;
    object?: Partial<CoverAnswer>;
  } | null;
  if (res.ok && (payload?.code === undefined || payload.code === ResultCode.ok)) {
    const cover = payload?.object?.cover;
    return { cover: typeof cover === 'string' ? cover : null };
  }
  throw new ApiError(
    res.status,
    typeof payload?.code === 'number' ? payload.code : ResultCode.internal,
    typeof payload?.message === 'string' ? payload.message : '',
  );
}

/** After a change: the story list (counts, status) and that story's episodes load afresh. */
export const refreshAuthoring = (client: QueryClient, storyId?: number): Promise<unknown> =>
  Promise.all([
    client.invalidateQueries({ queryKey: [apiPaths.ownStories()] }),
    storyId ? client.invalidateQueries({ queryKey: [apiPaths.ownEpisodes(storyId)] }) : null,
  ]);
