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

/** The rate-limit headers, their values filled in per request (withRate). */
const RATE_HEADERS = ['x-ratelimit-limit', 0, 'x-ratelimit-remaining', 0, 'x-ratelimit-reset', 0];

/**
 * Sets the rate-limit values in a head list that ends with RATE_HEADERS and then `tail` more
 * entries. The list is shared by every answer of its kind: node's writeHead reads it at once,
 * within this same turn, so the values set for one request are the ones its answer goes out with.
 */
function withRate(head: (string | number)[], rate: RateVerdict, tail: number): (string | number)[] {
  const at = head.length - tail - RATE_HEADERS.length;
  head[at + 1] = rate.max;
  head[at + 3] = rate.remaining;
  head[at + 5] = rate.resetSeconds;
  return head;
}

/**
 * The headers of each way a prepared answer goes out (an encoding, identity, 304) as node's
 * flat [name, value, ...] list, made on its first use, with the rate-limit headers last: a hit
 * then only sets their three values (withRate), instead of merging some twenty headers into a
 * new object, or copying the list, per request.
 */
const preparedHeads = new WeakMap<PreparedAnswer, Map<string, (string | number)[]>>();
function headOf(
  answer: PreparedAnswer,
  common: Readonly<Record<string, string>>,
  chosen: Chosen,
): (string | number)[] {
  let heads = preparedHeads.get(answer);
  if (!heads) preparedHeads.set(answer, (heads = new Map()));
  const key = chosen.body === null ? '304' : (chosen.encoding ?? 'identity');
  let head = heads.get(key);
  if (!head) {
    const list: (string | number)[] = [];
    for (const [name, value] of Object.entries({ ...common, ...answer.headers }))
      list.push(name, value);
    if (chosen.encoding) list.push('content-encoding', chosen.encoding);
    if (chosen.body !== null) list.push('content-length', chosen.body.length);
    list.push(...RATE_HEADERS);
    heads.set(key, (head = list));
  }
  return head;
}

/** The same for answers made per request, by their (constant) headers and encoding. */
const madeHeads = new WeakMap<object, Map<string, (string | number)[]>>();
function madeHeadOf(
  headers: Readonly<Record<string, string>>,
  common: Readonly<Record<string, string>>,
  encoding: Encoding | null,
): (string | number)[] {
  let heads = madeHeads.get(headers);
  if (!heads) madeHeads.set(headers, (heads = new Map()));
  const key = encoding ?? 'identity';
  let head = heads.get(key);
  if (!head) {
    const all: Record<string, string> = { ...common, ...headers };
    // As @fastify/compress: Vary and Content-Encoding only on what it compressed.
    if (encoding) {
      all.vary = all.vary ? `${all.vary}, accept-encoding` : 'accept-encoding';
      all['content-encoding'] = encoding;
    }
    heads.set(key, (head = [...Object.entries(all).flat(), ...RATE_HEADERS, 'content-length', 0]));
  }
  return head;
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
    const head = withRate(headOf(answer.prepared, common, chosen), rate, 0);
    res.writeHead(chosen.status, head as string[]);
    if (chosen.body === null) res.end();
    else res.end(chosen.body);
    return chosen.status;
  }
  let body: Buffer =
    typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  const encoding = encodingForBody(body.length, req.headers['accept-encoding']);
  if (encoding) body = compress(encoding, body);
  const head = withRate(madeHeadOf(answer.headers, common, encoding), rate, 2);
  head[head.length - 1] = body.length;
  res.writeHead(answer.status, head as string[]);
  res.end(body);
  return answer.status;
}
