import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import {
  AUTHORING,
  CoverAnswer,
  ErrorBody,
  Ok,
  ResultCode,
  StoryIdParams,
  coverUrl,
} from '@kathamala/domain';
import { AppError, invalid, notFound } from '../../errors.ts';
import { requireViewer } from '../../plugins/auth.ts';
import type { PublishingService } from '../publishing/service.ts';
import type { CoversService } from './service.ts';

/** The one form field the upload reads (SPEC.md 7). */
const FIELD = 'image';
const MB = 1024 * 1024;

/** What an upload route takes: its largest file and what its sentences call the thing sent. */
export interface UploadForm {
  maxBytes: number;
  /** 'cover', 'picture': as in "the most a cover can be". */
  noun: string;
}
const COVER_FORM: UploadForm = { maxBytes: AUTHORING.coverBytes, noun: 'cover' };

const fileTooLarge = (form: UploadForm) =>
  new AppError(
    413,
    ResultCode.payloadTooLarge,
    `This image is larger than ${form.maxBytes / MB} MB, the most a ${form.noun} can be. Save it smaller and try again.`,
  );
const notAForm = (form: UploadForm) =>
  new AppError(
    415,
    ResultCode.invalidInput,
    `Send the ${form.noun} as a form upload (multipart/form-data) with the image in the field '${FIELD}'.`,
  );

/** What multipart and body parsing throw, as the sentences an upload route answers with. */
export function uploadError(error: unknown, form: UploadForm = COVER_FORM): unknown {
  if (error instanceof AppError) return error;
  switch ((error as FastifyError | undefined)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(form);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return notAForm(form);
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalid(`Send one image in the field '${FIELD}' and nothing else.`);
  }
  return error;
}

/**
 * Makes `scope` parse multipart forms and answer their failures in `words`' sentences (such as
 * uploadError's): a wrong content type fails before the handler, so it must say what the route
 * wants, not "send JSON". Every upload route's scope calls this first.
 */
export async function acceptUploads(
  scope: FastifyInstance,
  words: (error: unknown) => unknown,
): Promise<void> {
  await scope.register(multipart, { throwFileSizeLimit: true });
  scope.setErrorHandler((error) => {
    const mapped = words(error);
    // Rethrown, a plain object (the rate limiter's 429) would go out as a normal answer: keep it
    // an Error so the app's handler answers it.
    if (mapped instanceof Error) throw mapped;
    throw Object.assign(new Error(String((mapped as { message?: unknown }).message)), mapped);
  });
}

/** The uploaded file's bytes; a missing file, another field or a broken form is a 4xx. */
export async function readImage(
  req: FastifyRequest,
  form: UploadForm = COVER_FORM,
): Promise<Buffer> {
  try {
    const part = await req.file({
      // A little over the limit, so a file of exactly the limit reaches the service's own check.
      limits: {
        fileSize: form.maxBytes + 1024,
        files: 1,
        fields: 4,
        fieldSize: 1024,
        parts: 5,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
    if (!part) throw invalid(`Choose an image to upload in the field '${FIELD}'.`);
    if (part.fieldname !== FIELD) {
      part.file.resume();
      throw invalid(`Send the ${form.noun} in the field '${FIELD}', not '${part.fieldname}'.`);
    }
    return await part.toBuffer();
  } catch (error) {
    const known = uploadError(error, form);
    // Anything else here is a form the client broke (cut off, malformed), not our failure.
    throw known instanceof AppError
      ? known
      : invalid('The upload could not be read. Please try again.');
  }
}

/** Cover upload by a story's author (SPEC.md 7), in a scope of its own that parses multipart. */
export async function coverRoutes(
  app: FastifyInstance,
  covers: CoversService,
  publishing: PublishingService,
  opts: { imagesHost?: string; uploadsPerMinute?: number } = {},
) {
  await app.register(async (scope) => {
    await acceptUploads(scope, uploadError);

    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/v1/upload-story-cover/upload/:id',
      {
        schema: {
          tags: ['author'],
          summary: `Uploads a story's cover: JPEG, PNG or WebP, up to 4 MB and 40 megapixels`,
          consumes: ['multipart/form-data'],
          params: StoryIdParams,
          response: {
            200: Ok(CoverAnswer),
            400: ErrorBody,
            401: ErrorBody,
            403: ErrorBody,
            404: ErrorBody,
            413: ErrorBody,
            415: ErrorBody,
            429: ErrorBody,
          },
        },
        // Decoding a large image costs a second of CPU: a few a minute is all an author needs.
        config: {
          auth: 'required',
          rateLimit: { max: opts.uploadsPerMinute ?? 12, timeWindow: '1 minute' },
        },
      },
      async (req) => {
        const storyId = req.params.id;
        // Who may change this story is settled before a byte of the body is read.
        await publishing.assertOwnStory(requireViewer(req), storyId);
        const stored = await covers.upload(storyId, await readImage(req));
        await publishing.coverUploaded(storyId);
        return {
          code: 0 as const,
          object: {
            storyId,
            cover: `${coverUrl(opts.imagesHost ?? '/images', storyId)}?v=${stored.version}`,
            width: stored.width,
            height: stored.height,
            bytes: stored.bytes,
          },
        };
      },
    );
  });
}

/**
 * GET `{prefix}:file`: WebP pictures kept under names that never change (covers' kin: community
 * pictures, campaign banners), cached for a year; `read` finds the bytes, `missing` words a 404.
 */
export function serveStoredImages(
  app: FastifyInstance,
  opts: {
    prefix: string;
    pattern: string;
    read: (file: string) => Promise<{ body: Buffer } | null>;
    missing: string;
  },
) {
  app.get<{ Params: { file: string } }>(
    `${opts.prefix}:file`,
    {
      schema: {
        hide: true,
        params: Type.Object({ file: Type.String({ pattern: opts.pattern }) }),
        response: { 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const found = await opts.read(req.params.file);
      if (!found) throw notFound(opts.missing);
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .type('image/webp')
        .send(found.body);
    },
  );
}
