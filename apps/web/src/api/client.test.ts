import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResultCode } from '@kathamala/domain';
import { apiRequest, ApiError, setUnauthorizedHandler } from './client.ts';

const answer = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

describe('apiRequest', () => {
  const onUnauthorized = vi.fn();
  beforeEach(() => setUnauthorizedHandler(onUnauthorized));
  afterEach(() => {
    vi.unstubAllGlobals();
    onUnauthorized.mockReset();
  });

  it('returns the object of a code 0 answer', async () => {
    vi.stubGlobal('fetch', () => answer(200, { code: 0, object: { ok: 1 } }));
    await expect(apiRequest('/api/x')).resolves.toEqual({ ok: 1 });
  });

  it("throws the server's message and code for a failure", async () => {
    vi.stubGlobal('fetch', () =>
      answer(403, { code: ResultCode.subscriptionRequired, message: 'Members only.' }),
    );
    await expect(apiRequest('/api/x')).rejects.toMatchObject({
      status: 403,
      code: 8,
      message: 'Members only.',
    });
  });

  it('treats a nonzero code as a failure even with HTTP 200', async () => {
    vi.stubGlobal('fetch', () => answer(200, { code: 4, message: 'No.' }));
    await expect(apiRequest('/api/x')).rejects.toBeInstanceOf(ApiError);
  });

  it('ends the session on a 401, unless the caller handles it', async () => {
    vi.stubGlobal('fetch', () => answer(401, { code: 2, message: 'Log in.' }));
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(
      apiRequest('/api/login', { method: 'POST', body: {}, sessionGuard: false }),
    ).rejects.toMatchObject({
      message: 'Log in.',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('reports a request that got no answer as a network failure', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest('/api/x')).rejects.toMatchObject({
      status: 0,
      code: ResultCode.network,
    });
  });
});
