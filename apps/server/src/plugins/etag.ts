import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Weak ETags and 304s for answers a client may keep, as @fastify/etag does, but none for
 * `no-store` answers (an episode's text for one reader): nobody can revalidate what may not be
 * kept, so hashing them is cost without use. Answers that already carry an ETag (the response
 * and page caches compute theirs once) are not hashed again.
 */
export function installEtags(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    let etag = reply.getHeader('etag');
    if (!etag) {
      if (!(typeof payload === 'string' || payload instanceof Buffer)) return done(null, payload);
      const cacheControl = reply.getHeader('cache-control');
      if (typeof cacheControl === 'string' && cacheControl.includes('no-store'))
        return done(null, payload);
      etag = `W/"${createHash('sha1').update(payload).digest('base64')}"`;
      reply.header('etag', etag);
    }
    const asked = request.headers['if-none-match'];
    if (asked && (asked === etag || asked === `W/${String(etag)}` || `W/${asked}` === etag)) {
      reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });
}
