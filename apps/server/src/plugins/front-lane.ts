import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyServerFactory } from 'fastify';
import type { RequestLine } from './request-log.ts';
import {
  choose,
  compress,
  encodingForBody,
  type Chosen,
  type Encoding,
  type PreparedAnswer,
} from './response-cache.ts';

/**
 * An answer the front lane sends without Fastify: a prepared one (a cached API answer or a
 * rendered page: 304, compression and ETag as the Fastify path), or one made for this request
 * (an episode for its reader: never kept, compressed when accepted, as @fastify/compress does).
 */
export type FrontAnswer =
  | { prepared: PreparedAnswer }
  | { status: number; headers: Readonly<Record<string, string>>; body: string | Buffer };

/**
 * Finds a request's answer in memory, or null to leave the request to Fastify. A source must
 * answer only what its route would answer the same way (status, body and headers) and leave
 * every other case (a refusal, a miss, input its route would reject) to Fastify.
 */
export type FrontSource = (
  req: IncomingMessage,
  url: string,
) => FrontAnswer | null | Promise<FrontAnswer | null>;

/** What the rate limiter says of one more request: whether it is over, and its headers' values. */
export interface RateVerdict {
  exceeded: boolean;
  /** x-ratelimit-limit, x-ratelimit-remaining and x-ratelimit-reset (seconds). */
  max: number;
  remaining: number;
  resetSeconds: number;
}

/** What the lane needs from the built app, given once its routes and caches exist. */
export interface FrontLaneDeps {
  /** Tried in order; the first answer goes out. */
  sources: FrontSource[];
  /** Headers every answer carries (the security headers). */
  headers: Readonly<Record<string, string>>;
  /** Counts the request against the client's budget, in the store the rate-limit plugin uses. */
  rateLimit(ip: string): RateVerdict | Promise<RateVerdict>;
  /** True while the server sheds load (the pressure plugin answers 503 then). */
  underPressure(): boolean;
  /** Writes the one line per request; null when logging is off. */
  log: RequestLine | null;
  /** Fastify's trustProxy setting, so the client address is the one the rate limiter counts. */
  trustProxy: string[] | false;
}

/** The lane's handle: the server factory for Fastify, and the switches of its life. */
export interface FrontLane {
  serverFactory: FastifyServerFactory;
  /** Starts answering from the sources (once the app is built). */
  open(deps: FrontLaneDeps): void;
  /** Stops answering: from now on every request goes to Fastify (draining, closing). */
  close(): void;
  /** How many answers the lane has sent itself (tests tell its answers from Fastify's). */
  served(): number;
}

type Next = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A lane in front of Fastify for the hottest reads: a GET whose answer is already in memory
 * (a cached public answer, a rendered page, an episode for a reader whose session and access
 * are in memory) is sent straight from the node:http handler, with the same headers, rate
 * limit, load shedding and log line as the Fastify path, skipping its routing, hooks and reply
 * machinery (which cost most of such a request's time). Everything else, including every
 * refusal, goes to Fastify untouched. Fastify creates its server through `serverFactory`.
 */
export function frontLane(): FrontLane {
  let deps: FrontLaneDeps | null = null;
  let served = 0;
  let clientIp: (req: IncomingMessage) => string = (req) => req.socket.remoteAddress ?? '';

  const handle = (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const lane = deps;
    const url = req.url;
    if (lane === null || req.method !== 'GET' || url === undefined || lane.underPressure())
      return next(req, res);
    const started = lane.log ? performance.now() : 0;
    let found: FrontAnswer | null | Promise<FrontAnswer | null> = null;
    for (const source of lane.sources) {
      try {
        found = source(req, url);
      } catch {
        return next(req, res);
      }
      if (found !== null) break;
    }
    if (found === null) return next(req, res);
    const ip = clientIp(req);
    if (found instanceof Promise) {
      void answer(lane, req, res, next, url, found, ip, started);
      return;
    }
    // Found at once (a cached answer, an episode whose reader and text are in memory): when
    // the limiter answers at once too, the answer goes out in this same turn.
    let counted: RateVerdict | Promise<RateVerdict>;
    try {
      counted = lane.rateLimit(ip);
    } catch {
      return next(req, res); // the limiter failed: Fastify answers
    }
    if (!(counted instanceof Promise))
      return finish(lane, req, res, next, url, found, counted, started);
    const sending = found;
    counted.then(
      (verdict) => finish(lane, req, res, next, url, sending, verdict, started),
      () => next(req, res),
    );
  };

  /** Awaits an answer found later (a read from the database), then counts it and sends it. */
  const answer = async (
    lane: FrontLaneDeps,
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
    url: string,
    found: Promise<FrontAnswer | null>,
    ip: string,
    started: number,
  ): Promise<void> => {
    let sending: FrontAnswer | null = null;
    let verdict: RateVerdict | null = null;
    try {
      sending = await found;
      if (sending !== null) verdict = await lane.rateLimit(ip);
    } catch {
      sending = null; // a source or the limiter failed: Fastify answers
    }
    if (sending === null || verdict === null) return next(req, res);
    finish(lane, req, res, next, url, sending, verdict, started);
  };

  /** Sends an answer unless the client is over its limit or the lane closed meanwhile. */
  const finish = (
    lane: FrontLaneDeps,
    req: IncomingMessage,
    res: ServerResponse,
    next: Next,
    url: string,
    sending: FrontAnswer,
    verdict: RateVerdict,
    started: number,
  ): void => {
    // Past the limit Fastify answers the 429 (it counts the request once more: the client is
    // over its budget either way).
    if (verdict.exceeded || deps === null) return next(req, res);
    let status: number;
    try {
      status = send(req, res, lane.headers, verdict, sending);
    } catch {
      // The connection went away mid-answer: nothing more can be said on it.
      res.destroy();
      return;
    }
    served++;
    lane.log?.(url, status, Math.round((performance.now() - started) * 10) / 10);
  };

  const serverFactory: FastifyServerFactory = (handler, fastifyOptions) => {
    // Fastify has filled in its defaults by now.
    const options = fastifyOptions as {
      http?: http.ServerOptions;
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
      maxRequestsPerSocket?: number;
    };
    const server = http.createServer(options.http ?? {}, (req, res) => handle(req, res, handler));
    // What Fastify sets on the server it would have made itself.
    if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  return {
    serverFactory,
    open: (given) => {
      if (given.trustProxy) {
        // Fastify's request.ip with trustProxy: the furthest address the trusted hops vouch for.
        const trust = proxyAddr.compile(given.trustProxy);
        clientIp = (req) => {
          const addresses = proxyAddr.all(req, trust);
          return addresses[addresses.length - 1] ?? '';
        };
      }
      deps = given;
    },
    close: () => {
      deps = null;
    },
    served: () => served,
  };
}

/** One header as node keeps it in a response's header map: [name as written, value]. */
type HeadEntry = [name: string, value: string | number];

/**
 * Node's own header map of a response (the one setHeader fills, keyed by lower-case name), or
 * undefined on a Node.js that keeps it elsewhere. writeHead validates every name and value it
 * is handed as a list, on every call: for an answer's twenty-odd headers, two regular
 * expressions over some 1.2 KB (the policy alone is 560 characters). Values in this map went
 * through setHeader's checks once already, so writeHead() sends them as they are; the lane's
 * heads are checked once, when made (side by side on one core: 1.03-1.05x on a cached answer).
 */
const OUT_HEADERS = Object.getOwnPropertySymbols(new http.OutgoingMessage()).find(
  (s) => s.description === 'kOutHeaders',
);

/** The rate-limit headers, filled in per request with the client's budget. */
const RATE_NAMES = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
/** The rate-limit headers with a placeholder value, to put in a head where they go out. */
export const RATE_HEADERS: Readonly<Record<(typeof RATE_NAMES)[number], number>> = {
  'x-ratelimit-limit': 0,
  'x-ratelimit-remaining': 0,
  'x-ratelimit-reset': 0,
};

/**
 * The headers of one way an answer goes out, checked once and kept: a request sets only the
 * values that are its own (the rate-limit budget, a made answer's length) before writing it.
 * The map is shared by every answer of its kind: node's writeHead reads it at once, within the
 * same turn, so the values set for one request are the ones its answer goes out with.
 */
export class Head {
  private constructor(
    private readonly map: Record<string, HeadEntry>,
    private readonly rate: readonly HeadEntry[],
    private readonly length: HeadEntry | undefined,
  ) {}

  /**
   * A head of these headers, in this order, each checked as writeHead would check it. The
   * rate-limit headers (RATE_HEADERS) and content-length, when present, are set per request.
   */
  static of(headers: Readonly<Record<string, string | number>>): Head {
    const entries: [string, HeadEntry][] = [];
    for (const [name, value] of Object.entries(headers)) {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, String(value));
      entries.push([name.toLowerCase(), [name, value]]);
    }
    // Made in one go, the map keeps V8's fast properties, so writeHead's for-in over it reads
    // a cached key list; added to key by key, past a dozen keys it turns into a dictionary and
    // each walk of its twenty-odd headers took about 1 µs instead of 0.1.
    const map = Object.setPrototypeOf(Object.fromEntries(entries), null) as Record<
      string,
      HeadEntry
    >;
    const rate = RATE_NAMES.map((name) => map[name]).filter((e) => e !== undefined);
    if (rate.length !== 0 && rate.length !== RATE_NAMES.length)
      throw new Error('a head carries all three rate-limit headers or none');
    return new Head(map, rate, map['content-length']);
  }

  /** Writes the status line and headers with this request's budget (and body length). */
  write(res: ServerResponse, status: number, rate: RateVerdict, length?: number): void {
    if (this.rate.length !== 0) {
      this.rate[0]![1] = rate.max;
      this.rate[1]![1] = rate.remaining;
      this.rate[2]![1] = rate.resetSeconds;
    }
    if (length !== undefined && this.length) this.length[1] = length;
    this.writeTo(res, status);
  }

  /** Writes the status line and the headers as they stand; `via` is node's map (tests: none). */
  writeTo(res: ServerResponse, status: number, via: symbol | undefined = OUT_HEADERS): void {
    if (via) (res as unknown as Record<symbol, unknown>)[via] = this.map;
    else for (const key in this.map) res.setHeader(...this.map[key]!);
    res.writeHead(status);
  }
}

/** A head, made on first use and kept under `key` (an encoding, identity, 304) for `owner`. */
function keptHead<K extends object>(
  kept: WeakMap<K, Map<string, Head>>,
  owner: K,
  key: string,
  make: () => Readonly<Record<string, string | number>>,
): Head {
  let heads = kept.get(owner);
  if (!heads) kept.set(owner, (heads = new Map()));
  let head = heads.get(key);
  if (!head) heads.set(key, (head = Head.of(make())));
  return head;
}

/**
 * The head of each way a prepared answer goes out (an encoding, identity, 304), made on its
 * first use, so a hit merges no headers and checks none again.
 */
const preparedHeads = new WeakMap<PreparedAnswer, Map<string, Head>>();
function headOf(
  answer: PreparedAnswer,
  common: Readonly<Record<string, string>>,
  chosen: Chosen,
): Head {
  const key = chosen.body === null ? '304' : (chosen.encoding ?? 'identity');
  return keptHead(preparedHeads, answer, key, () => ({
    ...common,
    ...answer.headers,
    ...(chosen.encoding ? { 'content-encoding': chosen.encoding } : {}),
    ...(chosen.body !== null ? { 'content-length': chosen.body.length } : {}),
    ...RATE_HEADERS,
  }));
}

/** The same for answers made per request, by their (constant) headers and encoding. */
const madeHeads = new WeakMap<object, Map<string, Head>>();
function madeHeadOf(
  headers: Readonly<Record<string, string>>,
  common: Readonly<Record<string, string>>,
  encoding: Encoding | null,
): Head {
  return keptHead(madeHeads, headers, encoding ?? 'identity', () => {
    const all: Record<string, string | number> = { ...common, ...headers };
    // As @fastify/compress: Vary and Content-Encoding only on what it compressed.
    if (encoding) {
      all.vary = all.vary ? `${all.vary}, accept-encoding` : 'accept-encoding';
      all['content-encoding'] = encoding;
    }
    return { ...all, ...RATE_HEADERS, 'content-length': 0 };
  });
}

/** Writes an answer with the common and rate-limit headers; returns the status sent. */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  common: Readonly<Record<string, string>>,
  rate: RateVerdict,
  answer: FrontAnswer,
): number {
  if ('prepared' in answer) {
    const chosen = choose(
      answer.prepared,
      req.headers['if-none-match'],
      req.headers['accept-encoding'],
    );
    headOf(answer.prepared, common, chosen).write(res, chosen.status, rate);
    if (chosen.body === null) res.end();
    else res.end(chosen.body);
    return chosen.status;
  }
  let body: Buffer =
    typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  const encoding = encodingForBody(body.length, req.headers['accept-encoding']);
  if (encoding) body = compress(encoding, body);
  madeHeadOf(answer.headers, common, encoding).write(res, answer.status, rate, body.length);
  res.end(body);
  return answer.status;
}
