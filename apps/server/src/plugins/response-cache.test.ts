import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  installResponseCache,
  negotiateEncoding,
  prepareAnswer,
  sendPrepared,
  weakEtag,
  urlMatcher,
  type ResponseCache,
} from './response-cache.ts';

// The plugins around the cache as app.ts registers them; no database is needed.
let app: FastifyInstance;
let cache: ResponseCache;
const calls = { big: 0, small: 0, visitors: 0, short: 0, slow: 0, slowShort: 0, failing: 0 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const big = { code: 0, object: { text: 'කතාමාල '.repeat(400), n: 1 } };

beforeAll(async () => {
  app = Fastify();
  await app.register(compress, { threshold: 1024 });
  await app.register(etag, { weak: true });
  app.decorateRequest('viewer', null);
  // A stand-in for plugins/auth.ts: x-viewer makes the request a logged-in one.
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-viewer']) request.viewer = { userId: 1 } as never;
  });
  cache = installResponseCache(app);
  app.get('/big', { config: { cache: { ttlMs: 60_000 } } }, async (_req, reply) => {
    calls.big++;
    reply.header('cache-control', 'public, max-age=60');
    return big;
  });
  app.get('/own-headers', { config: { cache: { ttlMs: 60_000 } } }, async (_req, reply) => {
    reply.header('content-language', 'si').header('x-story-version', '7');
    reply.header('link', '</details/3/>; rel=canonical');
    return { code: 0, object: { n: 1 } };
  });
  app.get('/small', { config: { cache: { ttlMs: 60_000 } } }, async () => {
    calls.small++;
    return { code: 0, object: { n: calls.small } };
  });
  app.get('/short', { config: { cache: { ttlMs: 30 } } }, async () => {
    calls.short++;
    return { code: 0, object: { n: calls.short } };
  });
  app.get('/slow', { config: { cache: { ttlMs: 60_000 } } }, async (req) => {
    calls.slow++;
    await new Promise((r) => setTimeout(r, 50));
    return { code: 0, object: { query: (req.query as { q?: string }).q ?? '', n: calls.slow } };
  });
  app.get('/slow-short', { config: { cache: { ttlMs: 40 } } }, async () => {
    calls.slowShort++;
    await sleep(60);
    return { code: 0, object: { n: calls.slowShort } };
  });
  app.get('/failing', { config: { cache: { ttlMs: 60_000 } } }, async (_req, reply) => {
    calls.failing++;
    await new Promise((r) => setTimeout(r, 20));
    return reply.status(503).send({ code: 3, message: 'Try again.' });
  });
  app.get('/visitors', { config: { cache: { ttlMs: 60_000, only: 'visitors' } } }, async (req) => {
    calls.visitors++;
    return { code: 0, object: { viewer: Boolean(req.viewer), n: calls.visitors } };
  });
  app.get('/prepared', async (request, reply) =>
    sendPrepared(
      request,
      reply,
      prepareAnswer(404, '<p>not here</p>'.repeat(200), {
        'content-type': 'text/html; charset=utf-8',
        vary: 'Cookie',
      }),
    ),
  );
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => {
  cache.clear();
  for (const k of Object.keys(calls) as (keyof typeof calls)[]) calls[k] = 0;
});

describe('response cache', () => {
  it('answers a hit with the same bytes and ETag without running the handler', async () => {
    const first = await app.inject('/big');
    const second = await app.inject('/big');
    expect(calls.big).toBe(1);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.json()).toEqual(big);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers.etag).toBe(weakEtag(first.body));
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['cache-control']).toBe('public, max-age=60');
    expect(second.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
    expect(second.headers.vary).toBe('accept-encoding');
  });

  it('answers 304 to a reader whose copy is current, on the filling request and on hits', async () => {
    const first = await app.inject('/big');
    const etagValue = String(first.headers.etag);
    for (const inm of [etagValue, etagValue.slice(2)]) {
      const again = await app.inject({ url: '/big', headers: { 'if-none-match': inm } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etagValue);
      expect(again.headers['cache-control']).toBe('public, max-age=60');
    }
    cache.clear();
    const filling = await app.inject({ url: '/big', headers: { 'if-none-match': etagValue } });
    expect(filling.statusCode).toBe(304);
    const stale = await app.inject({ url: '/big', headers: { 'if-none-match': 'W/"old"' } });
    expect(stale.statusCode).toBe(200);
  });

  it.each([
    ['br', 'gzip, deflate, br', zlib.brotliDecompressSync],
    ['gzip', 'gzip', zlib.gunzipSync],
    ['gzip', 'br;q=0.5, gzip', zlib.gunzipSync],
    ['deflate', 'deflate', zlib.inflateSync],
  ] as const)(
    'sends %s to Accept-Encoding "%s", when filling and on a hit',
    async (encoding, accept, decode) => {
      for (let i = 0; i < 2; i++) {
        const res = await app.inject({ url: '/big', headers: { 'accept-encoding': accept } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toBe('accept-encoding');
        expect(JSON.parse(decode(res.rawPayload).toString('utf8'))).toEqual(big);
      }
      expect(calls.big).toBe(1);
    },
  );

  it('sends every header the route set on its hits too, not only the first answer', async () => {
    const first = await app.inject({ url: '/own-headers' });
    const hit = await app.inject({ url: '/own-headers' });
    const perSending = new Set(['date', 'content-length', 'connection', 'keep-alive']);
    const own = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([name]) => !perSending.has(name)));
    expect(first.headers['x-story-version']).toBe('7');
    expect(own(hit.headers)).toEqual(own(first.headers));
  });

  it('sends small answers and refused encodings uncompressed', async () => {
    await app.inject('/small');
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ code: 0, object: { n: 1 } });
    const refused = await app.inject({
      url: '/big',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.json()).toEqual(big);
  });

  it('keeps answers for their time to live only', async () => {
    await app.inject('/short');
    expect((await app.inject('/short')).json().object.n).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    expect((await app.inject('/short')).json().object.n).toBe(2);
  });

  it("caches 'visitors' answers for visitors only", async () => {
    await app.inject('/visitors');
    await app.inject('/visitors');
    expect(calls.visitors).toBe(1);
    const viewer = await app.inject({ url: '/visitors', headers: { 'x-viewer': '1' } });
    expect(viewer.json().object).toEqual({ viewer: true, n: 2 });
    expect((await app.inject('/visitors')).json().object).toEqual({ viewer: false, n: 1 });
  });

  it('forgets everything on clear() and matching URLs on drop()', async () => {
    await app.inject('/big');
    await app.inject('/small');
    cache.drop('/sm');
    await app.inject('/big');
    await app.inject('/small');
    expect(calls).toMatchObject({ big: 1, small: 2 });
    cache.drop((url) => url === '/big');
    await app.inject('/big');
    expect(calls.big).toBe(2);
    cache.clear();
    await app.inject('/big');
    await app.inject('/small');
    expect(calls).toMatchObject({ big: 3, small: 3 });
  });

  it('sends a prepared answer with its status, and 304 to a current copy as @fastify/etag does', async () => {
    const res = await app.inject({ url: '/prepared', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers.vary).toBe('Cookie, accept-encoding');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toContain('<p>not here</p>');
    const again = await app.inject({
      url: '/prepared',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('urlMatcher', () => {
  it('matches a prefix, and the address without its trailing slash', () => {
    const m = urlMatcher('/details/3/');
    for (const url of ['/details/3/', '/details/3/2/', '/details/3', '/details/3?x=1'])
      expect(m(url), url).toBe(true);
    for (const url of ['/details/30/', '/details/30', '/details/', '/api/v1/story/3/'])
      expect(m(url), url).toBe(false);
    expect(urlMatcher((url) => url === '/a')('/a')).toBe(true);
  });
});

describe('hits and the rate limit', () => {
  it('counts a hit against the rate limit, which answers 429 past it', async () => {
    const limited = Fastify();
    await limited.register(rateLimit, { max: 2, timeWindow: '1 minute' });
    await limited.register(etag, { weak: true });
    limited.decorateRequest('viewer', null);
    installResponseCache(limited);
    let runs = 0;
    limited.get('/list', { config: { cache: { ttlMs: 60_000 } } }, async () => ({ n: ++runs }));
    expect((await limited.inject('/list')).statusCode).toBe(200);
    expect((await limited.inject('/list')).statusCode).toBe(200);
    expect(runs).toBe(1);
    expect((await limited.inject('/list')).statusCode).toBe(429);
    await limited.close();
  });
});

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['*', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['identity', null],
    ['gzip;q=0.5, identity', null],
    ['br;q=0, gzip;q=0', null],
    ['zstd', null],
    ['', null],
  ])('"%s" -> %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('filling one answer at a time', () => {
  it('makes an answer once while many readers ask for it at the same moment', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => app.inject('/slow?q=monsoon')),
    );
    expect(calls.slow).toBe(1);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json().object).toEqual({ query: 'monsoon', n: 1 });
    }
    // Another URL is another answer.
    expect((await app.inject('/slow?q=rain')).json().object).toEqual({ query: 'rain', n: 2 });
  });

  it('lets the waiting readers make their own when the first one fails', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => app.inject('/failing')));
    for (const res of answers) expect(res.statusCode).toBe(503);
    // The first failed: nothing was kept, so each waiting reader asked again.
    expect(calls.failing).toBe(5);
  });

  it('sends the expired answer at once while one request remakes it, never a dropped one', async () => {
    expect((await app.inject('/slow-short')).json().object.n).toBe(1);
    await sleep(60); // expired
    let remade = false;
    const remaking = app.inject('/slow-short').then((res) => ((remade = true), res));
    await sleep(10);
    const during = await app.inject('/slow-short');
    expect(during.json().object.n).toBe(1);
    expect(remade).toBe(false);
    expect((await remaking).json().object.n).toBe(2);
    expect((await app.inject('/slow-short')).json().object.n).toBe(2);

    // A change drops the answer: the next readers wait for the new one.
    cache.drop('/slow-short');
    const [first, second] = await Promise.all([
      app.inject('/slow-short'),
      sleep(10).then(() => app.inject('/slow-short')),
    ]);
    expect(first.json().object.n).toBe(3);
    expect(second.json().object.n).toBe(3);
    expect(calls.slowShort).toBe(3);
  });
});
