import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ResultCode } from '@kathamala/domain';
import type { Platform } from '../../platform.ts';
import { loadWebBuild } from './ssr.ts';
import { pageRoutes, type PageServices } from './routes.ts';

/**
 * The web app: its built files, the server-rendered pages (and what drops them), and the
 * not-found handler, which renders the app's other pages for browsers and answers JSON 404s.
 * The pages read their data from the other modules' services, as a visitor.
 */
export async function pagesModule({ app, config, changes }: Platform, deps: PageServices) {
  const web = await loadWebBuild(config.webDist);
  if (web) {
    await app.register(fastifyStatic, {
      root: path.join(config.webDist, 'client'),
      prefix: '/',
      wildcard: false,
      index: false,
      // Our own cache-control below, instead of send's default (max-age=0).
      cacheControl: false,
      setHeaders: (reply, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  const pages = pageRoutes(app, {
    ...deps,
    web,
    config: { imagesHost: config.imagesHost, publicUrl: config.publicUrl },
  });
  changes.on((c) => {
    if (c.kind === 'public' || c.kind === 'all') pages.clear();
    if (c.kind === 'story') pages.drop(`/details/${c.id}/`);
    if (c.kind === 'episodes') pages.drop(`/details/${c.storyId}/`);
  });

  // Pages rendered here and 404s count against the same budget as every route (as the
  // rate-limit plugin documents for not-found handlers).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const accept = request.headers.accept ?? '';
    const formPage =
      request.method === 'POST' && accept.includes('text/html')
        ? pages.formPage(request.url)
        : null;
    if (formPage) return reply.code(303).header('location', formPage).send();
    const isPage =
      request.method === 'GET' && !request.url.startsWith('/api/') && accept.includes('text/html');
    if (isPage) return pages.render(request, reply);
    return reply
      .status(404)
      .send({ code: ResultCode.notFound, message: 'There is nothing at this address.' });
  });
}
