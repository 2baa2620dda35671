import { useQuery } from '@tanstack/react-query';
import {
  ResultCode,
  type AudioProgressAnswer,
  type AudioTrackInput,
  type AudioUploadAnswer,
  type AuthorAudioTrack,
} from '@kathamala/domain';
import { getToken } from '../features/auth/session.ts';
import { ApiError, apiRequest } from './client.ts';

/** The audio calls of issue 29, in the style of the publishing ones. */
export const audioPaths = {
  tracks: (storyId: number) => `/api/v1/author/audio/${storyId}/webapp`,
  upload: (storyId: number) => `/api/v1/author/audio/upload/${storyId}`,
  track: () => '/api/v1/author/audio/track/webapp',
  deleteTrack: (trackId: number) => `/api/v1/author/audio/track/${trackId}/webapp`,
  progress: () => '/api/v1/audio/progress/',
};

/** How often the author's list asks again while a track is processing. */
const PROCESSING_POLL_MS = 3_000;

/** The author's tracks of one story, asked again every few seconds while any is processing. */
export const useAuthorTracks = (storyId: number) =>
  useQuery({
    queryKey: [audioPaths.tracks(storyId)],
    queryFn: ({ signal }) =>
      apiRequest<{ tracks: AuthorAudioTrack[] }>(audioPaths.tracks(storyId), { signal }),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.tracks.some((t) => t.status === 'processing') ? PROCESSING_POLL_MS : false,
  });

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** The fields of an upload besides the file. */
export interface TrackFields {
  title: string;
  partNumber: number | null;
  membersOnly: boolean;
}

/**
 * Uploads a track (multipart: `audio`, `title`, `partNumber`, `membersOnly`). XMLHttpRequest,
 * not fetch, because only it reports how much of a large file has gone (`onProgress`, 0..1).
 */
export function uploadTrack(
  storyId: number,
  file: File,
  fields: TrackFields,
  onProgress: (sent: number) => void,
): Promise<AudioUploadAnswer> {
  const form = new FormData();
  form.append('title', fields.title);
  if (fields.partNumber !== null) form.append('partNumber', String(fields.partNumber));
  form.append('membersOnly', String(fields.membersOnly));
  // The file last: a server reading the stream meets the fields first.
  form.append('audio', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', audioPaths.upload(storyId));
    xhr.setRequestHeader('accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, ResultCode.network, 'network'));
    xhr.onload = () => {
      const payload = parseJson(xhr.responseText) as {
        code?: number;
        message?: string;
        object?: AudioUploadAnswer;
      } | null;
      if (xhr.status < 300 && payload?.code === ResultCode.ok && payload.object)
        resolve(payload.object);
      else
        reject(
          new ApiError(
            xhr.status,
            typeof payload?.code === 'number' ? payload.code : ResultCode.internal,
            typeof payload?.message === 'string' ? payload.message : '',
          ),
        );
    };
    xhr.send(form);
  });
}

/** Changes the fields given of a track: title, part, place (`position`) or members-only. */
export const saveTrack = (track: AudioTrackInput) =>
  apiRequest<unknown>(audioPaths.track(), { method: 'POST', body: { track } });

/** Deletes a track for good. */
export const deleteTrack = (trackId: number) =>
  apiRequest<unknown>(audioPaths.deleteTrack(trackId), { method: 'DELETE' });

/** Keeps where the listener is in a track (login). */
export const sendProgress = (trackId: number, positionSeconds: number) =>
  apiRequest<AudioProgressAnswer>(audioPaths.progress(), {
    method: 'POST',
    body: { trackId, positionSeconds: Math.floor(positionSeconds) },
  });

/**
 * The same while the page goes away (pagehide): a keepalive request outlives the page.
 * sendBeacon cannot carry the Authorization header, so it is fetch with keepalive.
 */
export function sendProgressOnLeave(trackId: number, positionSeconds: number): void {
  const token = getToken();
  if (!token) return;
  void fetch(audioPaths.progress(), {
    method: 'POST',
    keepalive: true,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ trackId, positionSeconds: Math.floor(positionSeconds) }),
  }).catch(() => undefined);
}
