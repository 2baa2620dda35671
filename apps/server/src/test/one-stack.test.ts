import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/*
 * One stack (issue 26): every answer, first or from memory, goes through Fastify over the same
 * hooks. Over real HTTP, a request gets the same answer whether or not another client asked for
 * the same address just before, whatever its Accept header.
 */

let t: TestApp;
let base = '';

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(() => t?.close());

/** Headers that differ between two sendings of the same answer by their nature. */
const PER_SENDING = new Set(['date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'keep-alive']);

const get = async (path: string, accept: string) => {
  const res = await fetch(`${base}${path}`, {
    headers: { accept, 'accept-encoding': 'identity' },
  });
  const headers = Object.fromEntries(
    [...res.headers.entries()].filter(([name]) => !PER_SENDING.has(name)),
  );
  return { status: res.status, headers, body: await res.text() };
};

describe('the same answer, first or kept', () => {
  it('answers JSON to an API client whether or not a browser just asked for the same page', async () => {
    const path = '/leaderboard/?by=rating';
    const before = await get(path, 'application/json');
    expect(before.status).toBe(404);
    expect(JSON.parse(before.body)).toMatchObject({ code: expect.any(Number) });

    const page = await get(path, 'text/html');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);

    const after = await get(path, 'application/json');
    expect(after).toEqual(before);
  });

  it('sends a page and its repeat from memory with the same headers, the rate limit included', async () => {
    const path = '/leaderboard/?by=reads';
    const first = await get(path, 'text/html');
    const repeat = await get(path, 'text/html');
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBeDefined();
    expect(repeat).toEqual(first);
  });

  it('sends a cached API answer and its repeat with the same status, headers and body', async () => {
    for (const path of ['/api/v1/story/listV2/', '/api/v1/story/list/trending/']) {
      const first = await get(path, 'application/json');
      const repeat = await get(path, 'application/json');
      expect(first.status, path).toBe(200);
      expect(first.headers['x-ratelimit-limit'], path).toBeDefined();
      expect(first.headers['cache-control'], path).toMatch(/max-age/);
      expect(repeat, path).toEqual(first);
    }
  });
});

describe('compression', () => {
  it('compresses a cached list on its first answer and on its hits alike', async () => {
    const url = '/api/v1/story/listV2/?sortBy=new';
    const gz = () => t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    const first = await gz();
    const hit = await gz();
    const plain = await t.app.inject({ url });
    for (const res of [first, hit]) {
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.rawPayload).toString()).toBe(plain.body);
    }
  });
});

describe('the episode read', () => {
  it('answers a page turn from memory exactly as its first reading, and a stranger 401', async () => {
    const token = await t.login('member@demo.kathamala.lk', 'kathamala-demo');
    const list = (await (await fetch(`${base}/api/v1/story/listV2/`)).json()) as {
      object: { stories: { storyId: number }[] };
    };
    const storyId = list.object.stories[0]!.storyId;
    const read = (auth: string | null) =>
      fetch(`${base}/api/v1/story/${storyId}/part/number/1`, {
        headers: auth ? { authorization: `Bearer ${auth}` } : {},
      });
    const shape = async (res: Response) => ({
      status: res.status,
      body: await res.text(),
      headers: Object.fromEntries(
        [...res.headers.entries()].filter(([name]) => !PER_SENDING.has(name)),
      ),
    });
    const first = await shape(await read(token));
    const again = await shape(await read(token));
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect((await read(null)).status).toBe(401);
    // An address the route refuses is refused the same way, kept story or not.
    const odd = await fetch(`${base}/api/v1/story/${storyId}/part/number/0`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(odd.status).toBe(400);
  });
});

describe('the rate limit before the token check', () => {
  it('counts a request with a bad token against the budget, then refuses it', async () => {
    const url = `${base}/api/v1/story/listV2/`;
    const remaining = (res: Response) => Number(res.headers.get('x-ratelimit-remaining'));
    const before = await fetch(url);
    const forged = await fetch(url, { headers: { authorization: 'Bearer not.a.token' } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ message: expect.stringMatching(/log in again/) });
    expect(remaining(forged)).toBe(remaining(before) - 1);
  });
});
