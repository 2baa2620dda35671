import { Type, type Static } from 'typebox';
import { IdParam, NullableNumber } from './common.ts';

/** What an upload may be (issue 29): the server judges the bytes, the page may warn before sending. */
export const AUDIO_LIMITS = {
  /** Largest upload, in bytes (200 MB). */
  maxBytes: 200 * 1024 * 1024,
  /** Longest track, in seconds (3 hours). */
  maxSeconds: 3 * 60 * 60,
  /** File types the upload field offers; the bytes decide. */
  accept: '.mp3,.m4a,.aac,.wav,.ogg,.opus,.webm,audio/*',
} as const;

/** The two renditions of a track: AAC-LC 64 kbps mono M4A, and Opus 24 kbps mono. */
export const AUDIO_QUALITIES = ['standard', 'saver'] as const;
export type AudioQuality = (typeof AUDIO_QUALITIES)[number];
export const AudioQualitySchema = Type.Unsafe<AudioQuality>({
  type: 'string',
  enum: [...AUDIO_QUALITIES],
});

/** A track's processing state as its author sees it. */
export const AudioTrackStatus = Type.Unsafe<'processing' | 'ready' | 'failed'>({
  type: 'string',
  enum: ['processing', 'ready', 'failed'],
});
export type AudioTrackStatus = Static<typeof AudioTrackStatus>;

/** Bytes of each rendition of a ready track (what the player shows as the MB an episode costs). */
export const AudioSizes = Type.Object({ standard: Type.Integer(), saver: Type.Integer() });
export type AudioSizes = Static<typeof AudioSizes>;

/**
 * One track in a story's details or preview answer. `prefix` is what goes into
 * `/api/v1/audio/stream/{prefix}?quality=standard|saver`; null when this viewer may not hear a
 * members-only track. A member's prefix of a members-only track is a capability that expires
 * within hours (ask the details again for a fresh one).
 */
export const AudioBook = Type.Object({
  trackId: Type.Integer(),
  prefix: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  /** The episode the track narrates; null for an audio book of the whole story. */
  partNumber: Type.Union([Type.Integer(), Type.Null()]),
  durationSeconds: Type.Number(),
  membersOnly: Type.Boolean(),
  sizes: AudioSizes,
  /** Where this viewer stopped listening (0 for a visitor or a track not started). */
  positionSeconds: Type.Number(),
});
export type AudioBook = Static<typeof AudioBook>;

/** One track on the author's publish page. */
export const AuthorAudioTrack = Type.Object({
  trackId: Type.Integer(),
  title: Type.String(),
  partNumber: Type.Union([Type.Integer(), Type.Null()]),
  membersOnly: Type.Boolean(),
  /** Order among the story's tracks, from 1. */
  position: Type.Integer(),
  status: AudioTrackStatus,
  /** Why processing failed, a sentence; only when `status` is failed. */
  reason: Type.Optional(Type.String()),
  /** Seconds, once ready. */
  durationSeconds: NullableNumber,
  /** Bytes of both renditions, once ready. */
  sizes: Type.Union([AudioSizes, Type.Null()]),
});
export type AuthorAudioTrack = Static<typeof AuthorAudioTrack>;

/** GET /api/v1/author/audio/{storyId}/webapp: the story's tracks in order. */
export const AuthorAudioTracksAnswer = Type.Object({ tracks: Type.Array(AuthorAudioTrack) });
export type AuthorAudioTracksAnswer = Static<typeof AuthorAudioTracksAnswer>;

/** POST /api/v1/author/audio/upload/{storyId}: the new track, processing until its job is done. */
export const AudioUploadAnswer = Type.Object({
  trackId: Type.Integer(),
  status: AudioTrackStatus,
});
export type AudioUploadAnswer = Static<typeof AudioUploadAnswer>;

/** POST /api/v1/author/audio/track/webapp: changes only the fields given of the track `trackId`. */
export const AudioTrackInput = Type.Object(
  {
    trackId: IdParam,
    title: Type.Optional(Type.String({ maxLength: 500 })),
    partNumber: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    /** The new place among the story's tracks, from 1; the others move along. */
    position: Type.Optional(Type.Integer({ minimum: 1 })),
    membersOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AudioTrackInput = Static<typeof AudioTrackInput>;

export const AudioTrackBody = Type.Object(
  { track: AudioTrackInput },
  { additionalProperties: false },
);
export type AudioTrackBody = Static<typeof AudioTrackBody>;

/** POST /api/v1/audio/progress/: where the listener is in a track (login). */
export const AudioProgressBody = Type.Object(
  {
    trackId: IdParam,
    positionSeconds: Type.Number({ minimum: 0, maximum: 24 * 60 * 60 }),
  },
  { additionalProperties: false },
);
export type AudioProgressBody = Static<typeof AudioProgressBody>;

export const AudioProgressAnswer = Type.Object({
  positionSeconds: Type.Number(),
  /** When the track narrates a part and was finished: the part Continue reading now points to. */
  continuePart: Type.Optional(Type.Integer()),
});
export type AudioProgressAnswer = Static<typeof AudioProgressAnswer>;

export const AudioStreamParams = Type.Object(
  { prefix: Type.String({ minLength: 1, maxLength: 300 }) },
  { additionalProperties: false },
);
export const AudioStreamQuery = Type.Object(
  { quality: Type.Optional(AudioQualitySchema) },
  { additionalProperties: false },
);
