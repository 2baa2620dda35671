import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Keep successful answers this many ms; 'visitors' caches only requests without a viewer. */
    cache?: { ttlMs: number; only?: 'visitors' };
  }
}

interface Entry {
  at: number;
  payload: string;
  headers: Record<string, string>;
}

const MAX_ENTRIES = 2_000;
const KEPT_HEADERS = ['content-type', 'cache-control', 'etag'];

/** The cache's handle, so that writes (publishing, later) can drop what they made stale. */
export interface ResponseCache {
  clear(): void;
}

/**
 * A short in-memory cache of public answers that are the same for everyone, keyed by URL.
 * It runs after authentication, so a bad token is still refused before a cached answer goes out.
 */
export function installResponseCache(app: FastifyInstance): ResponseCache {
  const entries = new Map<string, Entry>();

  app.addHook('preHandler', async (request, reply) => {
    const rule = request.routeOptions.config?.cache;
    if (!rule || request.method !== 'GET' || (rule.only === 'visitors' && request.viewer)) return;
    const hit = entries.get(request.url);
    if (!hit || Date.now() - hit.at > rule.ttlMs) return;
    if (request.headers['if-none-match'] === hit.headers.etag) {
      return reply
        .status(304)
        .headers({ etag: hit.headers.etag, 'cache-control': hit.headers['cache-control'] })
        .send();
    }
    return reply.headers(hit.headers).send(hit.payload);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rule = request.routeOptions.config?.cache;
    if (
      !rule ||
      request.method !== 'GET' ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string'
    )
      return payload;
    if (rule.only === 'visitors' && request.viewer) return payload;
    const hit = entries.get(request.url);
    if (hit && Date.now() - hit.at <= rule.ttlMs) return payload;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(request.url, { at: Date.now(), payload, headers });
    return payload;
  });

  return { clear: () => entries.clear() };
}
