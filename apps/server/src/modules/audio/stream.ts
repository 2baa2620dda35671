import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import rangeParser from 'range-parser';
import {
  AudioStreamParams,
  AudioStreamQuery,
  ErrorBody,
  ResultCode,
  type AudioQuality,
} from '@kathamala/domain';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import type { Capabilities } from './capability.ts';
import { RENDITION_TYPES } from './ffmpeg.ts';
import type { ReadyTrack } from './repo.ts';
import { renditionKey } from './service.ts';

/** A track's renditions never change under one prefix: a new upload or edit makes a new prefix. */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';
/** A member's capability URL: their browser may keep it while the capability lasts. */
const PRIVATE_CACHE = 'private, max-age=3600';
const PREFIX = /^[0-9a-f]{24}$/;

export interface StreamDeps {
  storage: ObjectStorage;
  capabilities: Capabilities;
  trackByPrefix(prefix: string): Promise<ReadyTrack | undefined>;
  /** Requests a minute per track and listener (a browser makes a few per minute; seeks add some). */
  perListenerPerMinute: number;
}

const lost = () =>
  notFound('We could not find that recording. It may have been replaced: open the story again.');

/** The track a prefix opens, or the refusal: tampered or expired 403, unknown 404, members-only 403. */
async function trackOf(deps: StreamDeps, token: string) {
  const grant = token.includes('.') ? deps.capabilities.verify(token) : null;
  if (token.includes('.') && !grant)
    throw forbidden(
      'This link to the recording has expired or is not valid. Open the story again to listen.',
    );
  const prefix = grant ? grant.prefix : token;
  if (!PREFIX.test(prefix)) throw lost();
  const track = await deps.trackByPrefix(prefix);
  if (!track) throw lost();
  if (track.membersOnly && !grant)
    throw forbidden('This recording is for members. Subscribe to the story to listen.');
  return { track, grant };
}

/** Whether an If-Range validator still names this representation (RFC 9110 13.1.5: strong match). */
const ifRangeHolds = (value: string | undefined, etag: string, lastModified: string) =>
  value === undefined || value === etag || value === lastModified;

/**
 * GET and HEAD /api/v1/audio/stream/{prefix}?quality=standard|saver per RFC 9110: one byte
 * range answers 206 with Content-Range; an unsatisfiable one 416 with `bytes *\/N`; several
 * ranges, a malformed header or an If-Range that no longer holds get the whole file (200), as
 * RFC 9110 14.2 lets a server ignore Range. Streamed from storage, never held in memory.
 */
export function streamRoutes(app: FastifyInstance, deps: StreamDeps) {
  const send = async (req: FastifyRequest, reply: FastifyReply) => {
    const { prefix: token } = req.params as { prefix: string };
    const quality: AudioQuality = (req.query as { quality?: AudioQuality }).quality ?? 'standard';
    const { track, grant } = await trackOf(deps, token);
    const size = quality === 'standard' ? track.standardBytes : track.saverBytes;
    const etag = `"${track.prefix}-${quality}"`;
    const lastModified = track.updatedAt.toUTCString();
    reply.headers({
      'accept-ranges': 'bytes',
      etag,
      'last-modified': lastModified,
      'cache-control': grant && track.membersOnly ? PRIVATE_CACHE : PUBLIC_CACHE,
      'content-type': RENDITION_TYPES[quality],
    });
    const match = req.headers['if-none-match'];
    if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
      return reply.code(304).send();

    let range: { start: number; end: number } | undefined;
    const header = req.headers.range;
    const ifRange = req.headers['if-range'];
    if (
      header &&
      ifRangeHolds(typeof ifRange === 'string' ? ifRange : undefined, etag, lastModified)
    ) {
      const parsed = rangeParser(size, header, { combine: true });
      if (parsed === -1) {
        reply.code(416).header('content-range', `bytes */${size}`);
        throw new AppError(
          416,
          ResultCode.invalidInput,
          `The range asked for is outside this recording, which is ${size} bytes long.`,
        );
      }
      if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) range = parsed[0]!;
    }
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      reply.header('content-length', range.end - range.start + 1);
    } else reply.header('content-length', size);
    if (req.method === 'HEAD') return reply.send();
    const body = await deps.storage.read(renditionKey(track.prefix, quality), range);
    if (!body) throw lost();
    return reply.send(body);
  };

  const route = (method: 'GET' | 'HEAD', summary: string) =>
    app.withTypeProvider<TypeBoxTypeProvider>().route({
      method,
      url: '/api/v1/audio/stream/:prefix',
      schema: {
        tags: ['audio'],
        summary,
        params: AudioStreamParams,
        querystring: AudioStreamQuery,
        response: {
          200: { description: 'The whole rendition.', type: 'string', format: 'binary' },
          206: { description: 'The one byte range asked for.', type: 'string', format: 'binary' },
          400: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          416: ErrorBody,
          429: ErrorBody,
        },
      },
      // Already compressed audio; a player's many range requests count per track and listener,
      // not against the address's API budget (a carrier puts many phones behind one address).
      compress: false,
      config: {
        rateLimit: {
          max: deps.perListenerPerMinute,
          timeWindow: 60_000,
          keyGenerator: (req: FastifyRequest) =>
            `audio:${(req.params as { prefix?: string }).prefix ?? ''}:${req.ip}`,
        },
      },
      handler: send,
    });
  // HEAD first: Fastify then makes no HEAD of its own from the GET (which would open the file).
  route('HEAD', 'The headers of a rendition or of a byte range of it, without the bytes');
  route('GET', 'Streams a rendition of a track, with byte ranges (RFC 9110)');
}
