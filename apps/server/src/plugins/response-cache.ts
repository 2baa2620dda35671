import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAbortHookHandler,
  onResponseHookHandler,
  onSendHookHandler,
  preParsingHookHandler,
} from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Keep successful answers this many ms; 'visitors' caches only requests without a viewer. */
    cache?: { ttlMs: number; only?: 'visitors' };
  }
}

/** Content encodings a prepared answer can be sent in, best first. */
export type Encoding = 'br' | 'gzip' | 'deflate';
const ENCODINGS: readonly Encoding[] = ['br', 'gzip', 'deflate'];

/** Below this many bytes an answer goes out uncompressed (@fastify/compress's threshold). */
const COMPRESS_THRESHOLD = 1024;

/**
 * An answer worked out once and sent many times: its bytes, ETag and compressed variants are
 * computed when it is made (the variants on first demand), so sending it hashes, encodes and
 * compresses nothing. A hit on a string answer cost a UTF-8 length scan, an encode on write,
 * a SHA-1 of the whole body (pages) and a compression stream per request.
 */
export interface PreparedAnswer {
  /** When it was made (Date.now()), for the caller's time to live. */
  readonly at: number;
  readonly status: number;
  readonly body: Buffer;
  /** Weak ETag in @fastify/etag's format (W/"<sha1 base64>"), so clients' copies stay valid. */
  readonly etag: string;
  /** Headers sent with every variant: the ones its route set, with vary and etag. */
  readonly headers: Record<string, string>;
  /** Compressed bodies, each made the first time a reader accepts it. */
  readonly variants: Partial<Record<Encoding, Buffer>>;
}

/** Weak ETag of `body`, the same value @fastify/etag ({weak: true}) gives it. */
export const weakEtag = (body: Buffer | string): string =>
  `W/"${createHash('sha1').update(body).digest('base64')}"`;

/**
 * Prepares an answer for sending many times. `headers` must hold content-type and may hold any
 * other the route set; accept-encoding is added to vary, as every variant depends on it.
 */
export function prepareAnswer(
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
  etag?: string,
): PreparedAnswer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const tag = etag ?? weakEtag(bytes);
  const vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
  return {
    at: Date.now(),
    status,
    body: bytes,
    etag: tag,
    headers: { ...headers, vary, etag: tag },
    variants: {},
  };
}

const compressors: Record<Encoding, (body: Buffer) => Buffer> = {
  // Quality 4 (@fastify/compress's default): near gzip's speed, smaller output.
  br: (body) =>
    zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => zlib.gzipSync(body),
  deflate: (body) => zlib.deflateSync(body),
};

/** q-value of one Accept-Encoding entry ("br;q=0.5" -> 0.5); no q means 1. */
function qualityOf(params: string[]): number {
  for (const p of params) {
    const [name, value] = p.split('=');
    if (name?.trim() === 'q') {
      const q = Number(value);
      return Number.isFinite(q) ? q : 0;
    }
  }
  return 1;
}

/**
 * The encoding to answer in for an Accept-Encoding header, or null for identity. Highest q
 * wins, ties go to br, gzip, deflate in that order; '*' and x-gzip count as gzip, as in
 * @fastify/compress.
 */
export function negotiateEncoding(header: string): Encoding | null {
  let best: Encoding | null = null;
  let bestQ = 0;
  let identityQ = 0.001; // identity is acceptable unless refused, but loses to any encoding
  for (const entry of header.toLowerCase().split(',')) {
    const [rawName = '', ...params] = entry.split(';');
    let name = rawName.trim();
    if (name === '*' || name === 'x-gzip') name = 'gzip';
    const q = qualityOf(params);
    if (name === 'identity') identityQ = q;
    const rank = ENCODINGS.indexOf(name as Encoding);
    if (rank < 0 || q <= 0) continue;
    if (q > bestQ || (q === bestQ && best !== null && rank < ENCODINGS.indexOf(best))) {
      best = name as Encoding;
      bestQ = q;
    }
  }
  return best && bestQ >= identityQ ? best : null;
}

// Browsers send a handful of distinct headers: each is parsed once.
const negotiated = new Map<string, Encoding | null>();
const NEGOTIATED_MAX = 256;
const encodingFor = (header: string | undefined): Encoding | null => {
  if (!header) return null;
  let found = negotiated.get(header);
  if (found === undefined) {
    found = negotiateEncoding(header);
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, found);
  }
  return found;
};

/** Whether an If-None-Match header names this ETag (weak comparison, as @fastify/etag). */
const matches = (inm: string | undefined, etag: string): boolean =>
  inm !== undefined && (inm === etag || `W/${inm}` === etag || inm === `W/${etag}`);

/** What to send of a prepared answer: 304 (body null), or its bytes in the chosen encoding. */
export interface Chosen {
  status: number;
  body: Buffer | null;
  encoding: Encoding | null;
}

/**
 * Picks the status, body and encoding of a prepared answer for a request's If-None-Match and
 * Accept-Encoding headers (compressing on first demand).
 */
export function choose(
  answer: PreparedAnswer,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): Chosen {
  if (matches(ifNoneMatch, answer.etag)) return { status: 304, body: null, encoding: null };
  const encoding = answer.body.length >= COMPRESS_THRESHOLD ? encodingFor(acceptEncoding) : null;
  if (!encoding) return { status: answer.status, body: answer.body, encoding: null };
  let variant = answer.variants[encoding];
  if (!variant) variant = answer.variants[encoding] = compressors[encoding](answer.body);
  return { status: answer.status, body: variant, encoding };
}

// By the body itself: a source that hands out the same Buffer again (a kept episode answer, see
// stories/part-answer.ts) has it compressed once, not on every read of a browser.
const compressedBodies = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();

/** `body` in `encoding` (answers made per request, such as an episode), once per Buffer and encoding. */
export function compress(encoding: Encoding, body: Buffer): Buffer {
  let forms = compressedBodies.get(body);
  if (!forms) compressedBodies.set(body, (forms = {}));
  return (forms[encoding] ??= compressors[encoding](body));
}

/** The encoding to send a body of `length` bytes in for an Accept-Encoding header, or null. */
export const encodingForBody = (
  length: number,
  acceptEncoding: string | undefined,
): Encoding | null => (length >= COMPRESS_THRESHOLD ? encodingFor(acceptEncoding) : null);

/**
 * The body to send for this request (compressed when the reader accepts it), with its headers
 * set on the reply; content-encoding and etag being set makes @fastify/compress and
 * @fastify/etag pass it through untouched. null when the reader's copy is current (304).
 */
export function chooseBody(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
): Buffer | null {
  reply.headers(answer.headers);
  const chosen = choose(
    answer,
    request.headers['if-none-match'],
    request.headers['accept-encoding'],
  );
  reply.code(chosen.status);
  if (chosen.encoding) reply.header('content-encoding', chosen.encoding);
  return chosen.body;
}

/** Sends a prepared answer: 304 when the reader has it, else its bytes in the best encoding. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
): FastifyReply {
  const body = chooseBody(request, reply, answer);
  return body === null ? reply.send() : reply.send(body);
}

const MAX_ENTRIES = 2_000;

/** A promise with its resolve: waiters for an answer being made. */
interface Settleable {
  promise: Promise<void>;
  resolve(): void;
}
/** Waiters give up after this and make the answer themselves (a filler that never answers). */
const FILL_WAIT_MS = 5_000;
/** How long past its time an answer may still go out while its successor is being made. */
const STALE_WHILE_FILLING_MS = 10_000;
const settleable = (): Settleable => {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
    setTimeout(r, FILL_WAIT_MS).unref();
  });
  return { promise, resolve };
};

/** A route option that holds one hook, several, or none, as a list. */
const hooksOf = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
/**
 * Headers that belong to one sending, never to a kept answer: its length and encoding (each
 * variant has its own), the connection's, and the rate limit's budget (counted per request).
 */
const PER_SENDING = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'etag',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
]);

/**
 * The headers to keep with an answer: every header its reply carries but those of the sending
 * and those that were already there before the route ran (`before`: set for every request by
 * the onRequest hooks, such as the security headers), which every hit gets from them again.
 */
function keptHeaders(reply: FastifyReply, before: ReadonlySet<string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (PER_SENDING.has(name) || before.has(name) || value === undefined) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

/**
 * A URL test for drop(): a string is a prefix, and one ending in '/' also matches the same
 * address without it (routes ignore a trailing slash: '/details/3' is '/details/3/').
 */
export function urlMatcher(match: string | ((url: string) => boolean)): (url: string) => boolean {
  if (typeof match !== 'string') return match;
  const bare = match.endsWith('/') ? match.slice(0, -1) : null;
  return (url) =>
    url.startsWith(match) || (bare !== null && (url === bare || url.startsWith(`${bare}?`)));
}

/** The cache's handle, so that writes (publishing, later) can drop what they made stale. */
export interface ResponseCache {
  /** Drops every cached answer. */
  clear(): void;
  /** Drops the answers whose URL starts with a prefix (see urlMatcher) or satisfies a predicate. */
  drop(match: string | ((url: string) => boolean)): void;
}

/** A kept answer and until when (Date.now()) its route lets it be sent. */
interface Kept {
  answer: PreparedAnswer;
  until: number;
}

/**
 * A short in-memory cache of public answers that are the same for everyone, keyed by URL.
 * It runs after authentication, so a bad token is still refused before a cached answer goes out.
 * Entries are prepared answers: a hit sends stored bytes with a stored ETag, compressed once.
 */
export function installResponseCache(app: FastifyInstance): ResponseCache {
  const entries = new Map<string, Kept>();
  /** URLs whose answer one request is making now, and the requests making them. */
  const filling = new Map<string, Settleable>();
  /** The requests making an answer, with the headers their replies had before the route ran. */
  const fillers = new WeakMap<FastifyRequest, ReadonlySet<string>>();

  /**
   * The answer to send for a URL: a fresh one, or, while one request makes its successor, the
   * expired one it replaces (for at most STALE_WHILE_FILLING_MS past its time). Answers a change
   * made stale are dropped, never expired, so only time has passed over what this sends; the
   * readers who arrive during a refill get it at once instead of waiting for the query.
   */
  const hit = (url: string): PreparedAnswer | undefined => {
    const kept = entries.get(url);
    if (kept === undefined) return undefined;
    const now = Date.now();
    if (now <= kept.until) return kept.answer;
    return filling.has(url) && now <= kept.until + STALE_WHILE_FILLING_MS ? kept.answer : undefined;
  };

  // The hooks go on the cached routes only, with their rule in the closure: other routes pay
  // nothing, and no request reads request.routeOptions (a getter that builds an object).
  app.addHook('onRoute', (route) => {
    const rule = route.config?.cache;
    if (!rule) return;
    // Answers kept for everyone are compressed here, once (prepareAnswer, chooseBody): the
    // compression plugin's hooks would only pass them through. Registered before that plugin,
    // so it reads these options.
    if (!rule.only) {
      route.compress = false;
      route.decompress = false;
    }
    // A hit is answered in preParsing, after every onRequest hook (authentication, load
    // shedding and the rate limit, which @fastify/rate-limit adds per route) and before
    // validation and preHandler hooks: the URL it is keyed by passed them all when it was made.
    const sendHit: preParsingHookHandler = (request, reply, _payload, done) => {
      if (request.method !== 'GET' || (rule.only === 'visitors' && request.viewer)) return done();
      const kept = hit(request.url);
      // Not calling done(): the reply is sent here and the handler does not run.
      if (kept) return sendPrepared(request, reply, kept);
      const running = filling.get(request.url);
      if (!running) {
        // This request makes the answer; others for the same URL wait for it (below).
        filling.set(request.url, settleable());
        fillers.set(request, new Set(Object.keys(reply.getHeaders())));
        return done();
      }
      // One fill at a time per URL: when an entry expires under load, the readers who arrive
      // meanwhile take its new answer instead of each running the same query.
      void running.promise.then(() => {
        const made = hit(request.url);
        if (made) sendPrepared(request, reply, made);
        else done();
      });
    };
    // Ends the wait whatever happened to the filling request (an error, a 404, an abort).
    const release = (request: FastifyRequest) => {
      if (!fillers.delete(request)) return;
      filling.get(request.url)?.resolve();
      filling.delete(request.url);
    };
    const settle: onResponseHookHandler = (request, _reply, done) => {
      release(request);
      done();
    };
    const abandoned: onRequestAbortHookHandler = (request, done) => {
      release(request);
      done();
    };

    // First of the route's onSend hooks, so it sees the serialized string before
    // @fastify/compress (a route hook too) would turn it into a stream; @fastify/etag, a global
    // hook, has already tagged it: the same tag is kept, not a second hash.
    const fill: onSendHookHandler = (request, reply, payload, done) => {
      if (
        request.method !== 'GET' ||
        reply.statusCode !== 200 ||
        typeof payload !== 'string' ||
        (rule.only === 'visitors' && request.viewer)
      )
        return done(null, payload);
      const headers = keptHeaders(reply, fillers.get(request) ?? new Set());
      const etag = reply.getHeader('etag');
      const answer = prepareAnswer(
        200,
        payload,
        headers,
        typeof etag === 'string' ? etag : undefined,
      );
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(request.url, { answer, until: answer.at + rule.ttlMs });
      done(null, chooseBody(request, reply, answer) ?? '');
    };

    route.preParsing = [sendHit, ...hooksOf(route.preParsing)];
    route.onSend = [fill, ...hooksOf(route.onSend)];
    route.onResponse = [...hooksOf(route.onResponse), settle];
    route.onRequestAbort = [...hooksOf(route.onRequestAbort), abandoned];
  });

  return {
    clear: () => entries.clear(),
    drop: (match) => {
      const test = urlMatcher(match);
      for (const url of entries.keys()) if (test(url)) entries.delete(url);
    },
  };
}
