import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.ts';

describe('numbers too large to be numbers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

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
