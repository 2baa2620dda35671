import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installEtags } from './etag.ts';

const app = Fastify();
installEtags(app);
app.get('/kept', async (_req, reply) =>
  reply.header('cache-control', 'public, max-age=60').send('a story list'),
);
app.get('/private', async (_req, reply) =>
  reply.header('cache-control', 'private, no-store').send('an episode'),
);

describe('ETags', () => {
  it('tags an answer a client may keep and answers 304 to a current copy', async () => {
    const first = await app.inject('/kept');
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    const again = await app.inject({
      url: '/kept',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await app.inject({ url: '/kept', headers: { 'if-none-match': 'W/"old"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe('a story list');
  });

  it('does not tag an answer that may not be kept', async () => {
    const res = await app.inject('/private');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });
});
