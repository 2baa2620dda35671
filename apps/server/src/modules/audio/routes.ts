import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AUDIO_LIMITS,
  AudioProgressAnswer,
  AudioProgressBody,
  AudioTrackBody,
  AudioUploadAnswer,
  AuthorAudioTracksAnswer,
  DeletedAnswer,
  ErrorBody,
  IdParam,
  Ok,
  ResultCode,
  StoryIdParams,
} from '@kathamala/domain';
import { AppError, invalid } from '../../errors.ts';
import { requireViewer } from '../../plugins/auth.ts';
import { noFfmpeg, type AudioService } from './service.ts';
import { acceptUploads } from '../covers/routes.ts';

const FIELD = 'audio';
const MB = 1024 * 1024;
const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
};
const tags = ['author'];
const mine = { auth: 'required' } as const;

const tooLarge = () =>
  new AppError(
    413,
    ResultCode.payloadTooLarge,
    `This recording is larger than ${AUDIO_LIMITS.maxBytes / MB} MB, the most a track can be. Export it at a lower bitrate or split it, and try again.`,
  );

/** What multipart parsing throws, as the sentences this route answers with. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  switch ((error as FastifyError | undefined)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        415,
        ResultCode.invalidInput,
        `Send the track as a form upload (multipart/form-data) with the recording in the field '${FIELD}'.`,
      );
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalid(
        `Send one recording in the field '${FIELD}', with its title, part and members-only fields.`,
      );
  }
  return error;
}

interface Upload {
  file: string | null;
  fields: Record<string, string>;
}

/** The form, its file streamed to `dir` (never held in memory), its fields as text. */
async function readUpload(req: FastifyRequest, dir: string): Promise<Upload> {
  const got: Upload = { file: null, fields: {} };
  try {
    const parts = req.parts({
      limits: {
        fileSize: AUDIO_LIMITS.maxBytes,
        files: 1,
        fields: 6,
        fieldSize: 2048,
        parts: 7,
        headerPairs: 20,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== FIELD) {
          part.file.resume();
          throw invalid(`Send the recording in the field '${FIELD}', not '${part.fieldname}'.`);
        }
        got.file = path.join(dir, 'upload');
        await pipeline(part.file, createWriteStream(got.file));
      } else got.fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    const known = uploadError(error);
    throw known instanceof AppError
      ? known
      : invalid('The upload could not be read. Please try again.');
  }
  return got;
}

/** A form field as a part number: empty for none. */
const partOf = (value: string | undefined) => {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw invalid(
      'The part number must be a whole number from 1 up, or empty for the whole story.',
      'partNumber',
    );
  return n;
};
const flagOf = (value: string | undefined) => value === 'true' || value === '1' || value === 'on';

const TrackIdParams = Type.Object({ trackId: IdParam }, { additionalProperties: false });

/** The author's track calls (issue 29) and the listener's progress. */
export async function audioRoutes(app: FastifyInstance, audio: AudioService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  await app.register(async (scope) => {
    await acceptUploads(scope, uploadError);
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/v1/author/audio/upload/:id',
      {
        schema: {
          tags,
          summary: 'Uploads a track (MP3, M4A/AAC, WAV, Ogg or Opus; up to 200 MB and 3 hours)',
          consumes: ['multipart/form-data'],
          params: StoryIdParams,
          response: { 200: Ok(AudioUploadAnswer), ...errors },
        },
        config: { ...mine, rateLimit: { max: 12, timeWindow: '1 minute' } },
      },
      async (req) => {
        const viewer = requireViewer(req);
        const storyId = req.params.id;
        // Who may upload, and whether this server can convert, before a byte of the body is read.
        if (!audio.ffmpeg) throw noFfmpeg();
        await audio.assertOwnStory(viewer, storyId);
        const dir = await mkdtemp(path.join(os.tmpdir(), 'kathamala-upload-'));
        try {
          const { file, fields } = await readUpload(req, dir);
          if (!file) throw invalid(`Choose a recording to upload in the field '${FIELD}'.`, FIELD);
          const object = await audio.upload(
            viewer,
            storyId,
            {
              title: fields.title ?? '',
              partNumber: partOf(fields.partNumber),
              membersOnly: flagOf(fields.membersOnly),
            },
            file,
          );
          return { code: 0 as const, object };
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    );
  });

  r.get(
    '/api/v1/author/audio/:id/webapp',
    {
      schema: {
        tags,
        params: StoryIdParams,
        response: { 200: Ok(AuthorAudioTracksAnswer), ...errors },
      },
      config: mine,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: await audio.authorTracks(requireViewer(req), req.params.id),
      };
    },
  );

  r.post(
    '/api/v1/author/audio/track/webapp',
    {
      schema: {
        tags,
        body: AudioTrackBody,
        response: { 200: Ok(AuthorAudioTracksAnswer), ...errors },
      },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await audio.updateTrack(requireViewer(req), req.body.track),
    }),
  );

  r.delete(
    '/api/v1/author/audio/track/:trackId/webapp',
    {
      schema: { tags, params: TrackIdParams, response: { 200: Ok(DeletedAnswer), ...errors } },
      config: mine,
    },
    async (req) => {
      await audio.deleteTrack(requireViewer(req), req.params.trackId);
      return { code: 0 as const, object: { deleted: true } };
    },
  );

  r.post(
    '/api/v1/audio/progress/',
    {
      schema: {
        tags: ['audio'],
        body: AudioProgressBody,
        response: { 200: Ok(AudioProgressAnswer), ...errors },
      },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await audio.saveProgress(
        requireViewer(req),
        req.body.trackId,
        req.body.positionSeconds,
      ),
    }),
  );
}
