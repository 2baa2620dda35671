import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { apiPaths, CATEGORIES, Category, ErrorBody, detailsPath } from '@kathamala/domain';
import { notFound } from '../../errors.ts';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import type { TokenKeys } from '../../auth/keys.ts';
import type { StoriesRepo } from '../stories/repo.ts';
import { COVER_FILE_PATTERN } from '../covers/files.ts';
import { coversService } from '../covers/service.ts';

/** Site files: health, categories, JWKS, covers, robots.txt and the sitemap. */
export function metaRoutes(
  app: FastifyInstance,
  deps: { keys: TokenKeys; storage: ObjectStorage; stories: StoriesRepo; publicUrl: string },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/api/health', { schema: { hide: true } }, async () => ({ code: 0, object: { ok: true } }));

  r.get(
    '/categories.json',
    {
      schema: {
        tags: ['site'],
        summary: 'The story categories, with their names in English and Sinhala.',
        response: { 200: Type.Array(Category) },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return [...CATEGORIES];
    },
  );

  // Documents the answer; extra JWK members (use, alg) pass through.
  const jwk = Type.Object(
    { kty: Type.String(), crv: Type.String(), x: Type.String(), kid: Type.String() },
    { additionalProperties: true },
  );
  const jwksSchema = {
    tags: ['site'],
    summary: 'The public keys (Ed25519 JWKs) that verify access tokens, the signing key first.',
    response: { 200: Type.Object({ keys: Type.Array(jwk) }) },
  };
  app.get('/.well-known/jwks.json', { schema: jwksSchema }, async (_req, reply) => {
    // Five minutes: a rotated key is published an hour before it signs (keys:rotate), so every
    // cached key set knows it in time.
    reply.header('cache-control', 'public, max-age=300');
    return { keys: await deps.keys.jwks() };
  });

  const covers = coversService(deps.storage);
  app.get<{ Params: { file: string } }>(
    '/images/:file',
    {
      schema: {
        hide: true,
        params: Type.Object({ file: Type.String({ pattern: COVER_FILE_PATTERN }) }),
        response: { 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const found = await covers.read(req.params.file);
      if (!found) throw notFound('There is no cover image for that story.');
      // Authors can replace a cover under the same name: a cache keeps it ten minutes, then may
      // show it while it asks again, and the ETag (@fastify/etag) makes that a 304 if unchanged.
      return reply
        .header('cache-control', 'public, max-age=600, stale-while-revalidate=86400')
        .header('x-content-type-options', 'nosniff')
        .type(req.params.file.endsWith('.webp') ? 'image/webp' : 'image/png')
        .send(found.body);
    },
  );

  r.get('/robots.txt', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('text/plain')
      .header('cache-control', 'public, max-age=86400')
      .send(
        `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /account\nDisallow: /login\nDisallow: /signup\nDisallow: /statistics\nDisallow: /publish/\n\nSitemap: ${deps.publicUrl}/sitemap.xml\n`,
      ),
  );

  r.get('/sitemap.xml', { schema: { hide: true } }, async (_req, reply) => {
    const { items } = await deps.stories.list({
      category: 'all',
      sortBy: 'new',
      ongoing: 'both',
      limit: 50_000,
      offset: 0,
    });
    // Authors with at least one public story: the list holds only public stories.
    const authorIds = [...new Set(items.map((s) => s.author.authorId))];
    const urls = [
      '/',
      '/category',
      '/leaderboard/',
      ...items.map((s) => detailsPath(s.storyId)),
      ...authorIds.map((id) => apiPaths.authorPage(id)),
    ]
      .map((p) => `  <url><loc>${deps.publicUrl}${p}</loc></url>`)
      .join('\n');
    return reply
      .type('application/xml')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      );
  });
}
