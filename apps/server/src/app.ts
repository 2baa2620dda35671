import path from 'node:path';
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { LIMITS, ResultCode } from '@kathamala/domain';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { ensureReferenceData } from './db/reference.ts';
import { seedDemo } from './db/seed/index.ts';
import { installErrorHandling } from './errors.ts';
import { installAuth } from './plugins/auth.ts';
import { installResponseCache } from './plugins/response-cache.ts';
import { loadTokenKeys } from './auth/keys.ts';
import { localStorage, memoryStorage } from './adapters/storage/local.ts';
import type { ObjectStorage } from './adapters/storage/types.ts';
import { authRepo } from './modules/auth/repo.ts';
import { authService } from './modules/auth/service.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { storiesRepo } from './modules/stories/repo.ts';
import { storiesService } from './modules/stories/service.ts';
import { storyRoutes } from './modules/stories/routes.ts';
import { metaRoutes } from './modules/meta/routes.ts';
import { pageRoutes } from './modules/pages/routes.ts';
import { loadWebBuild } from './modules/pages/ssr.ts';

const STATIC_PATHS = /^\/(assets\/|images\/|favicon|icon|manifest\.webmanifest|robots\.txt)/;

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  storage: ObjectStorage;
}

/** Builds the whole server: plugins, adapters and modules in one explicit list. Does not listen. */
export async function buildApp(
  config: Config,
  opts: { inMemory?: boolean; logger?: boolean } = {},
): Promise<BuiltApp> {
  const memory = opts.inMemory ?? false;
  if (!memory && config.dataDir) fs.mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: memory || !config.dataDir ? null : path.join(config.dataDir, 'pglite'),
  });
  const storage =
    memory || !config.dataDir
      ? memoryStorage()
      : localStorage(path.join(config.dataDir, 'objects'));
  const keys = await loadTokenKeys(memory ? null : config.dataDir);
  await ensureReferenceData(database.db);
  if (config.demoSeed) await seedDemo(database.db, storage);

  const app = Fastify({
    logger: opts.logger ? { level: 'info' } : false,
    bodyLimit: LIMITS.bodyBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: false,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
      },
    },
  });

  // Ecosystem plugins first.
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Kathamala API',
        version: '1.0.0',
        description: 'Serialized Sinhala and English fiction.',
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(rateLimit, {
    max: config.rateLimit.max,
    timeWindow: '1 minute',
    // Phones behind one carrier address share a budget: files a page needs never count.
    allowList: (request) => STATIC_PATHS.test(request.url),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: ResultCode.tooManyRequests,
      message: `Too many requests. Please wait ${Math.ceil(ctx.ttl / 1000)} seconds and try again.`,
    }),
  });
  await app.register(compress, { threshold: 1024 });
  await app.register(etag, { weak: true });

  // Our plugins.
  installErrorHandling(app);
  const auth = authService(authRepo(database.db), keys);
  installAuth(app, auth);
  installResponseCache(app);

  // Modules.
  const repo = storiesRepo(database.db);
  const stories = storiesService(repo);
  authRoutes(app, auth, { max: config.rateLimit.authMax, timeWindow: '1 minute' });
  storyRoutes(app, stories);
  metaRoutes(app, { keys, storage, stories: repo, publicUrl: config.publicUrl });

  const web = await loadWebBuild(config.webDist);
  if (web) {
    await app.register(fastifyStatic, {
      root: path.join(config.webDist, 'client'),
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders: (res, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  const renderPage = pageRoutes(app, {
    web,
    stories,
    config: { imagesHost: config.imagesHost, publicUrl: config.publicUrl },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) return renderPage(request, reply);
    return reply
      .status(404)
      .send({ code: ResultCode.notFound, message: 'There is nothing at this address.' });
  });

  app.addHook('onClose', async () => database.close());
  return { app, database, storage };
}
