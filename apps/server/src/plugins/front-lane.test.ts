import http from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearOfRateWindowEnd, createTestApp, type TestApp } from '../test/helpers.ts';

// The front lane answers in-memory reads before Fastify. What a client gets from it must be
// what the Fastify path gives for the same request (app.inject never passes the lane), and
// every case the lane does not own must still reach Fastify's routes and hooks.

/** Headers that differ between two answers for reasons of their own (time, connection, budget). */
const VOLATILE = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);
const stable = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !VOLATILE.has(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );

/** A test app listening on a loopback port (the lane sits in front of the real server only). */
async function listeningApp(env?: Parameters<typeof createTestApp>[0]) {
  const app = await createTestApp(env);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return { app, base: `http://127.0.0.1:${address.port}` };
}

let t: TestApp;
let base: string;
let memberToken: string;
let storyId: number;

beforeAll(async () => {
  ({ app: t, base } = await listeningApp());
  memberToken = await t.login('member@demo.kathamala.lk', 'kathamala-demo');
  storyId = await readable(memberToken);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The first listed story whose first part this token's reader may read. */
async function readable(token: string): Promise<number> {
  const list = await t.app.inject({ url: '/api/v1/story/listV2/' });
  for (const { storyId: id } of list.json().object.stories as { storyId: number }[]) {
    const res = await t.app.inject({
      url: `/api/v1/story/${id}/part/number/1`,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode === 200) return id;
  }
  throw new Error('no readable story in the demo data');
}

/** A GET over real HTTP, and whether the front lane sent it. */
async function get(path: string, headers: Record<string, string> = {}) {
  const before = t.front.served();
  // fetch asks for gzip by default; app.inject, which it is compared with, asks for nothing.
  const res = await fetch(base + path, { headers: { 'accept-encoding': 'identity', ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    front: t.front.served() > before,
  };
}

/** A GET whose body is read as sent (fetch would decode it), with its content-encoding. */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; encoding?: string; body: Buffer }>((resolve, reject) => {
    http
      .get(base + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

/** A public answer the response cache holds: fetched once through Fastify to fill it. */
async function warm(path: string) {
  const first = await get(path);
  expect(first.front).toBe(false);
  return first;
}

describe('cached public answers', () => {
  it('answers a cached list from the lane with the bytes and headers Fastify gives', async () => {
    const path = '/api/v1/story/listV2/?page=1';
    await warm(path);
    const viaLane = await get(path);
    expect(viaLane.front).toBe(true);
    const viaFastify = await t.app.inject({ url: path });
    expect(viaLane.status).toBe(200);
    expect(viaLane.body.toString()).toBe(viaFastify.body);
    expect(stable(viaLane.headers)).toEqual(stable(viaFastify.headers));
    // The security headers and the rate-limit budget are there.
    expect(viaLane.headers['content-security-policy']).toContain("default-src 'self'");
    expect(viaLane.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('answers 304 to a reader whose copy is current, and compresses for those who accept it', async () => {
    const path = '/api/v1/story/list/trending/';
    const first = await warm(path);
    const again = await get(path, { 'if-none-match': first.headers.etag! });
    expect(again.front).toBe(true);
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const before = t.front.served();
    const raw = await rawGet(path, { 'accept-encoding': 'gzip, br' });
    expect(t.front.served()).toBe(before + 1);
    expect(raw.encoding).toBe('br');
    expect(brotliDecompressSync(raw.body).toString()).toBe(
      (await t.app.inject({ url: path })).body,
    );
  });

  it('leaves a request with a token to Fastify: a bad token is a 401 even on a public list', async () => {
    const path = '/api/v1/story/listV2/?page=1';
    await get(path);
    const forged = await get(path, { authorization: 'Bearer not-a-token' });
    expect(forged.front).toBe(false);
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body.toString())).toMatchObject({ code: expect.any(Number) });
  });

  it('leaves HEAD and not-yet-cached addresses to Fastify', async () => {
    const head = await fetch(`${base}/api/v1/story/listV2/?page=2`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const miss = await get('/api/v1/story/listV2/?page=3');
    expect(miss.front).toBe(false);
    expect(miss.status).toBe(200);
  });
});

describe("a reader's episode", () => {
  const part = () => `/api/v1/story/${storyId}/part/number/1`;

  it("is answered from memory with the route's body and headers", async () => {
    await get(part(), { authorization: `Bearer ${memberToken}` }); // fills the reading caches
    const viaLane = await get(part(), { authorization: `Bearer ${memberToken}` });
    expect(viaLane.front).toBe(true);
    expect(viaLane.status).toBe(200);
    const viaFastify = await t.app.inject({
      url: part(),
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(viaFastify.statusCode).toBe(200);
    expect(viaLane.body.toString()).toBe(viaFastify.body);
    expect(stable(viaLane.headers)).toEqual(stable(viaFastify.headers));
    expect(viaLane.headers['cache-control']).toBe('private, no-store');
    expect(viaLane.headers.etag).toBeUndefined();
  });

  it('is compressed for a browser, and the text arrives whole', async () => {
    const before = t.front.served();
    const res = await rawGet(part(), {
      authorization: `Bearer ${memberToken}`,
      'accept-encoding': 'gzip, br',
    });
    expect(t.front.served()).toBe(before + 1);
    expect(res.status).toBe(200);
    expect(res.encoding).toBe('br');
    const body = JSON.parse(brotliDecompressSync(res.body).toString()) as {
      object: { part: { content?: string } };
    };
    expect(body.object.part.content?.length ?? 0).toBeGreaterThan(100);
  });

  it('goes to Fastify for every refusal, which words it', async () => {
    const visitor = await get(part());
    expect(visitor.status).toBe(401);
    expect(visitor.front).toBe(false);
    const missing = await get(`/api/v1/story/${storyId}/part/number/99999`, {
      authorization: `Bearer ${memberToken}`,
    });
    expect(missing.status).toBe(404);
    expect(missing.front).toBe(false);
    const outOfRange = await get(`/api/v1/story/${storyId}/part/number/100001`, {
      authorization: `Bearer ${memberToken}`,
    });
    expect(outOfRange.status).toBe(400);
    expect(JSON.parse(outOfRange.body.toString()).message).toEqual(expect.any(String));
  });

  it('walls a reader who is not a member, also once their story, part and state are in memory', async () => {
    const reader = await t.login('reader@demo.kathamala.lk', 'kathamala-demo');
    const list = await t.app.inject({ url: '/api/v1/story/listV2/' });
    let walled: string | undefined;
    for (const { storyId: id } of list.json().object.stories as { storyId: number }[]) {
      const path = `/api/v1/story/${id}/part/number/1`;
      const asReader = await t.app.inject({
        url: path,
        headers: { authorization: `Bearer ${reader}` },
      });
      if (asReader.statusCode === 403) walled = path;
      if (walled) break;
    }
    expect(walled).toBeDefined();
    // The member's read keeps the story and part; the reader's first refusal keeps their state.
    expect((await get(walled!, { authorization: `Bearer ${memberToken}` })).status).toBe(200);
    const member = await get(walled!, { authorization: `Bearer ${memberToken}` });
    expect(member.front).toBe(true);
    await get(walled!, { authorization: `Bearer ${reader}` });
    const again = await get(walled!, { authorization: `Bearer ${reader}` });
    expect(again.status).toBe(403);
    expect(again.front).toBe(false);
    expect(JSON.parse(again.body.toString()).message).toBe(
      'This story is for members. Subscribe to read it.',
    );
  });

  it('is refused on the next request after a logout', async () => {
    const token = await t.login('reader@demo.kathamala.lk', 'kathamala-demo');
    const freeStory = await readable(token);
    const path = `/api/v1/story/${freeStory}/part/number/1`;
    await get(path, { authorization: `Bearer ${token}` });
    const read = await get(path, { authorization: `Bearer ${token}` });
    expect(read.status).toBe(200);
    expect(read.front).toBe(true);
    const out = await fetch(`${base}/api/v1/user/logout`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.status).toBe(200);
    const after = await get(path, { authorization: `Bearer ${token}` });
    expect(after.status).toBe(401);
  });
});

describe('limits', () => {
  let small: TestApp;
  let smallBase: string;
  beforeAll(async () => {
    ({ app: small, base: smallBase } = await listeningApp({ RATE_LIMIT_MAX: '5', DEMO_SEED: '0' }));
  }, 120_000);
  afterAll(async () => {
    await small?.close();
  });

  it("counts the lane's answers against the reader's budget: the sixth is a 429", async () => {
    await clearOfRateWindowEnd();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await fetch(`${smallBase}/api/v1/story/listV2/`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(small.front.served()).toBeGreaterThanOrEqual(4);
    const refused = await fetch(`${smallBase}/api/v1/story/listV2/`);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Too many requests/);
  });
});

describe("the lane's rate-limit headers", () => {
  it('count each answer down: lists, 304s and episodes, one after another', async () => {
    await clearOfRateWindowEnd();
    const list = '/api/v1/story/listV2/?page=2';
    const first = await warm(list);
    const answers = [
      await get(list),
      await get(list, { 'if-none-match': first.headers.etag! }),
      await get(list),
      await get(`/api/v1/story/${storyId}/part/number/1`, {
        authorization: `Bearer ${memberToken}`,
      }),
      await get(list),
    ];
    expect(answers.map((a) => a.front)).toEqual([true, true, true, true, true]);
    expect(answers.map((a) => a.status)).toEqual([200, 304, 200, 200, 200]);
    const remaining = [first, ...answers].map((a) => Number(a.headers['x-ratelimit-remaining']));
    // Each answer is one more request on the same budget.
    expect(remaining.slice(1).map((r, i) => remaining[i]! - r)).toEqual([1, 1, 1, 1, 1]);
    for (const a of answers) {
      expect(a.headers['x-ratelimit-limit']).toBe('100000');
      expect(Number(a.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(a.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    // The episode's own length, not the list's, whatever list was sent before it.
    expect(Number(answers[3]!.headers['content-length'])).toBe(answers[3]!.body.length);
    expect(Number(answers[4]!.headers['content-length'])).toBe(answers[4]!.body.length);
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  let proxied: TestApp;
  let proxiedBase: string;
  beforeAll(async () => {
    ({ app: proxied, base: proxiedBase } = await listeningApp({
      RATE_LIMIT_MAX: '3',
      DEMO_SEED: '0',
      TRUST_PROXY: 'loopback',
    }));
  }, 120_000);
  afterAll(async () => {
    await proxied?.close();
  });

  it('counts each reader by the address the proxy vouches for, as Fastify does', async () => {
    await clearOfRateWindowEnd();
    const from = (ip: string) =>
      fetch(`${proxiedBase}/api/v1/story/listV2/`, { headers: { 'x-forwarded-for': ip } });
    const a: number[] = [];
    for (let i = 0; i < 4; i++) a.push((await from('203.0.113.7')).status);
    // The first fills the cache through Fastify, the next two come from the lane: one budget.
    expect(a).toEqual([200, 200, 200, 429]);
    expect(proxied.front.served()).toBeGreaterThanOrEqual(2);
    // Another reader behind the same proxy has a budget of their own.
    expect((await from('198.51.100.9')).status).toBe(200);
  });
});

it('brotli variants the lane sends decode to the same page Fastify renders', async () => {
  const page = `/details/${storyId}/`;
  const first = await get(page, { accept: 'text/html' });
  if (first.status === 503) return; // no web build in this checkout: pages are tested elsewhere
  const before = t.front.served();
  const res = await rawGet(page, { 'accept-encoding': 'br' });
  expect(t.front.served()).toBe(before + 1);
  expect(res.status).toBe(200);
  expect(res.encoding).toBe('br');
  const viaFastify = await t.app.inject({ url: page });
  expect(brotliDecompressSync(res.body).toString()).toBe(viaFastify.body);
});
