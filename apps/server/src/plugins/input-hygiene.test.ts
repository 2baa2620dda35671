import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { findUnfitInput } from './input-hygiene.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('numbers too large to be numbers', () => {
  it.each([
    '/api/v1/story/1e309/preview/',
    '/api/v1/story/-1e309/preview/',
    '/api/v1/author/1e309/story/list/',
    '/api/v1/story/search/?query=love&page=1e309',
    '/api/v1/story/listV2/?page=1e309',
  ])('GET %s answers 400 with a sentence, not 500', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 1, message: expect.stringMatching(/whole number/) });
  });

  it('refuses 1e309 in a JSON body the same way', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/series/season/list/',
      headers: { 'content-type': 'application/json' },
      payload: '{"seriesId": 1e309}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(1);
  });

  it('still answers ordinary ids', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/story/listV2/?page=1' });
    expect(res.statusCode).toBe(200);
  });
});

describe('text holding NUL', () => {
  it.each(['/api/v1/story/search/?query=a%00b', '/api/v1/story/search/?query=%00'])(
    'GET %s answers 400 with a sentence, not 500',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 1,
        message: 'The text contains characters that are not allowed.',
      });
    },
  );

  it('refuses NUL in a JSON body that passes validation', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'someone@example.com', password: 'pass\u0000word' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 1,
      message: 'The text contains characters that are not allowed.',
    });
  });
});

describe('findUnfitInput (one walk over params, query and body)', () => {
  it('finds nothing in ordinary input', () => {
    expect(findUnfitInput({ id: 3 }, { query: 'monsoon', tags: ['a', 'b'] }, undefined)).toBe(null);
    expect(findUnfitInput({}, {}, { nested: { list: [1, 2.5, { ok: 'yes' }] } })).toBe(null);
  });

  it('names the key holding a non-finite number, also inside arrays and nested objects', () => {
    expect(findUnfitInput({ id: Infinity }, {}, null)).toEqual({ nonFinite: 'id' });
    expect(findUnfitInput({}, { ids: [1, -Infinity] }, null)).toEqual({ nonFinite: 'ids' });
    expect(findUnfitInput({}, {}, { a: { b: [{ c: Number.NaN }] } })).toEqual({
      nonFinite: 'c',
    });
  });

  it('finds NUL in values at any depth, and a 5,000-deep body does not overflow', () => {
    expect(findUnfitInput({}, { q: 'x\u0000' }, null)).toEqual({ nul: true });
    let deep: unknown = ['\u0000'];
    for (let i = 0; i < 5_000; i++) deep = { x: deep };
    expect(findUnfitInput({}, {}, deep)).toEqual({ nul: true });
  });
});
