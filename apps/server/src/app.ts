import path from 'node:path';
import fs from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type onSendHookHandler } from 'fastify';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { LIMITS, ResultCode } from '@kathamala/domain';
import type { Config } from './config.ts';
import type { Platform } from './platform.ts';
import { openDatabase, type Database } from './db/client.ts';
import { ensureReferenceData } from './db/reference.ts';
import { seedDemo } from './db/seed/index.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './errors.ts';
import { installEtags } from './plugins/etag.ts';
import { installRequestLog, serverLogger } from './plugins/request-log.ts';
import { openApiOptions } from './plugins/openapi.ts';
import { installInputHygiene } from './plugins/input-hygiene.ts';
import { startCacheBus, type CacheBus } from './plugins/cache-bus.ts';
import { changeFeed } from './cache/changes.ts';
import { installPressure } from './plugins/pressure.ts';
import { installResponseCache } from './plugins/response-cache.ts';
import {
  installSecurityHeaders,
  securityHeaders,
  swaggerUiCsp,
} from './plugins/security-headers.ts';
import { openTokenKeys, type TokenKeys } from './auth/keys.ts';
import { sharedSecrets } from './auth/deployment-secrets.ts';
import { startupLock } from './db/startup-lock.ts';
import { sharedRateLimits } from './plugins/rate-limit-store.ts';
import { s3Storage } from './adapters/storage/s3.ts';
import { localStorage, memoryStorage } from './adapters/storage/local.ts';
import type { ObjectStorage } from './adapters/storage/types.ts';
import { startJobQueue, type JobQueue } from './jobs/queue.ts';
import { eventDispatch } from './jobs/events.ts';
import { startCarrier, type Carrier } from './adapters/carrier.ts';
import { carrierDispatch, type CarrierDispatch } from './modules/carrier/dispatch.ts';
import type { MailTransport } from './modules/mail/transport.ts';
import { renderCover } from './modules/covers/art.ts';
import { ROLLUP_JOB } from './modules/engagement/service.ts';
import { authModule } from './modules/auth/module.ts';
import { storiesModule } from './modules/stories/module.ts';
import { publishingModule } from './modules/publishing/module.ts';
import { commentsModule } from './modules/comments/module.ts';
import { metaModule } from './modules/meta/module.ts';
import { healthModule } from './modules/health/module.ts';
import { engagementModule } from './modules/engagement/module.ts';
import { socialModule } from './modules/social/module.ts';
import { carrierModule } from './modules/carrier/module.ts';
import { membershipModule } from './modules/membership/module.ts';
import { alertsModule } from './modules/alerts/module.ts';
import { statisticsModule } from './modules/statistics/module.ts';
import { leaderboardModule } from './modules/leaderboard/module.ts';
import { notificationsModule } from './modules/notifications/module.ts';
import { mailModule } from './modules/mail/module.ts';
import { pagesModule } from './modules/pages/module.ts';
import { communityModule } from './modules/community/module.ts';
import { moderationModule } from './modules/moderation/module.ts';
import { audioModule } from './modules/audio/module.ts';
import { oauthModule } from './modules/oauth/module.ts';
import { campaignsModule } from './modules/campaigns/module.ts';

/** Files a page needs: they never count against a reader's rate limit. */
const STATIC_PATHS =
  /^\/(assets\/|images\/|favicon|icon|manifest\.webmanifest|robots\.txt|prepaint\.js|sw\.js)/;

/** The global rate limit's window: a budget a minute per address. */
const RATE_WINDOW_MS = 60_000;

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  storage: ObjectStorage;
  queue: JobQueue;
  /** Billing and SMS adapters, and the simulator when it plays the carrier (tests drive it). */
  carrier: Carrier;
  /** Where verified carrier notifications go: modules register their handlers on it. */
  dispatch: CarrierDispatch;
  /** Where e-mail goes; in memory (tests) it keeps the messages in `sent`. */
  mail: MailTransport;
  /** The token keys (tests reload them after a rotation). */
  keys: TokenKeys;
  /** Waits for the notices of changes committed so far (tests that write with SQL). */
  cacheBus: Pick<CacheBus, 'sync'>;
}

/**
 * Builds the whole server and does not listen. In order: the database and adapters, Fastify
 * with its plugins (the hooks every request runs through), then the modules, each registering
 * its own routes, jobs and cache listeners, then the demo seed and the web app's pages.
 */
export async function buildApp(
  config: Config,
  opts: { inMemory?: boolean; logger?: boolean } = {},
): Promise<BuiltApp> {
  const memory = opts.inMemory ?? false;

  // The database and the adapters.
  if (!memory && config.dataDir) fs.mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolMax: config.databasePoolMax,
    pgliteDir: memory || !config.dataDir ? null : path.join(config.dataDir, 'pglite'),
  });
  // Instances starting together take turns until the seed is done (queue schema, keys, seed).
  const releaseStartup = await startupLock(config.databaseUrl);
  // Uploads on S3 when S3_BUCKET is set (every instance serves every file), else local disk.
  const s3 = config.s3 ? s3Storage(config.s3) : null;
  const storage =
    s3 ??
    (memory || !config.dataDir
      ? memoryStorage()
      : localStorage(path.join(config.dataDir, 'objects')));
  // Keys and secrets belong to the deployment: configured, or shared through the database.
  const secrets = sharedSecrets(database.db, config.keys.encryptionSecret);
  const keys = await openTokenKeys({
    db: database.db,
    dataDir: memory ? null : config.dataDir,
    ...config.keys,
  });
  const rateLimits = sharedRateLimits(database);
  await ensureReferenceData(database.db);
  const queue = await startJobQueue(database, { pollingIntervalSeconds: config.jobPollSeconds });
  // Events recorded in the statement of their change get their jobs from this dispatcher.
  const events = await eventDispatch(database.db, queue);
  const dispatch = carrierDispatch();
  const carrier = await startCarrier(config, { dataDir: memory ? null : config.dataDir, secrets });
  // Sessions, stories, episodes and readers' own state are kept in memory; the database's
  // triggers announce each committed change of them to every instance (LISTEN/NOTIFY).
  const changes = changeFeed();
  const bus = await startCacheBus(database, config.databaseUrl, (c) => changes.emit(c));

  // Fastify and the hooks every request runs through, in the order they run.
  const log = opts.logger ? serverLogger() : null;
  const app = Fastify({
    ...(log ? { loggerInstance: log.logger } : { logger: false }),
    // One line per request from installRequestLog instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Requests log through the server's logger itself rather than a child made for each one:
    // our request lines carry no request id, and a child per request costs every answer.
    childLoggerFactory: (logger) => logger,
    bodyLimit: LIMITS.bodyBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Behind a proxy (TRUST_PROXY) the client's address comes from X-Forwarded-For, so rate
    // limits count readers rather than the proxy; with none set, the header is ignored.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Router and HTTP-parser refusals answer {code, message} like every other failure.
    frameworkErrors,
    clientErrorHandler,
    // While draining (SIGTERM) requests on open connections are answered, with Connection:
    // close, instead of Fastify's 503 in a shape of its own: the database closes only after.
    return503OnClosing: false,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
      },
    },
  });
  if (log) installRequestLog(app, log.requestLine);
  // Security headers first: their hook must run before any other can answer.
  installSecurityHeaders(app, securityHeaders(config));
  // Load shedding next, so a request refused past capacity costs no other work.
  await installPressure(app, config.pressure);
  await app.register(swagger, openApiOptions({ publicUrl: config.publicUrl }));
  await app.register(swaggerUi, { routePrefix: '/api/docs', transformStaticCSP: swaggerUiCsp });
  await app.register(rateLimit, {
    ...rateLimits.options,
    max: config.rateLimit.max,
    timeWindow: RATE_WINDOW_MS,
    // Phones behind one carrier address share a budget: files a page needs never count.
    allowList: (request) => STATIC_PATHS.test(request.url),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: ResultCode.tooManyRequests,
      message: `Too many requests. Please wait ${Math.ceil(ctx.ttl / 1000)} seconds and try again.`,
    }),
  });
  // Before compression: a cached route compresses its own answers (see response-cache.ts).
  const responseCache = installResponseCache(app);
  await app.register(compress, { threshold: 1024 });
  installEtags(app);
  installErrorHandling(app);
  installInputHygiene(app);
  changes.on((c) => {
    if (c.kind === 'public' || c.kind === 'all') responseCache.clear();
  });
  // A request that may have written answers only once its changes' notices are back, so the
  // caller's next request (here or, as the notices reach all at once, elsewhere) sees them.
  // Only on such routes: reads pay nothing.
  const syncWrites: onSendHookHandler = async (_request, _reply, payload) => {
    await bus.sync();
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.every((m) => m === 'GET' || m === 'HEAD') || route.config?.writes)
      route.onSend = [...(route.onSend ? [route.onSend].flat() : []), syncWrites];
  });

  // The modules.
  const platform: Platform = {
    app,
    config,
    db: database.db,
    readDb: database.readDb,
    queue,
    events,
    storage,
    carrier,
    dispatch,
    keys,
    secrets,
    memory,
    cache: { feed: changes, live: () => bus.live() },
    changes,
    responseCache,
    // Public lists and pages: dropped here and announced to the other instances.
    invalidate: () => {
      changes.emit({ kind: 'public' });
      bus.publishPublic();
    },
  };
  // First: its hook resolves the viewer of every route registered after it.
  const auth = authModule(platform);
  const { stories, repo } = await storiesModule(platform);
  const { publishing, covers } = await publishingModule(platform, auth);
  commentsModule(platform, stories);
  metaModule(platform, repo);
  healthModule(platform);
  const engagement = await engagementModule(platform, auth, stories);
  socialModule(platform);
  await carrierModule(platform);
  await membershipModule(platform);
  await alertsModule(platform);
  await statisticsModule(platform);
  const leaderboard = leaderboardModule(platform);
  await notificationsModule(platform);
  const mail = await mailModule(platform);
  const { community } = await communityModule(platform);
  await moderationModule(platform);
  const oauth = await oauthModule(platform, { auth, mail });
  const { campaigns, contests } = await campaignsModule(platform);

  // The demo stories go through the same publishing path as every author's.
  const seeded =
    config.demoSeed &&
    (await seedDemo(database.db, {
      ...publishing,
      storeCover: (storyId, png) => covers.store(storyId, png),
      drawCover: renderCover,
      recomputeRatings: () => engagement.recomputeRatings(),
    }));
  // The start-up roll-up may have run before the seed's views existed.
  if (seeded) await queue.send(ROLLUP_JOB, { full: true }, { retryLimit: 2 });
  await audioModule(platform, stories);
  // The simulator learns our apps' keywords and the members it has not met (the seed's).
  await carrier.provision(database.db);
  await releaseStartup();

  // Last: its not-found handler renders every address no route above answers.
  await pagesModule(platform, {
    stories,
    leaderboard,
    community,
    signIn: oauth,
    campaigns,
    contests,
  });

  app.addHook('onClose', async () => {
    await bus.close();
    keys.close();
    await rateLimits.close();
    s3?.close();
    await carrier.close();
    // Jobs in flight finish before the database they write to closes.
    await queue.stop();
    await database.close();
    log?.flush();
  });
  return { app, database, storage, queue, carrier, dispatch, mail, keys, cacheBus: bus };
}
