import path from 'node:path';
import fs from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type onSendHookHandler } from 'fastify';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { LIMITS, ResultCode } from '@kathamala/domain';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { ensureReferenceData } from './db/reference.ts';
import { seedDemo } from './db/seed/index.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './errors.ts';
import { installAuth } from './plugins/auth.ts';
import { installEtags } from './plugins/etag.ts';
import { installRequestLog, serverLogger } from './plugins/request-log.ts';
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
import { authRepo } from './modules/auth/repo.ts';
import { authService } from './modules/auth/service.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { storiesRepo } from './modules/stories/repo.ts';
import { storiesService } from './modules/stories/service.ts';
import { storyRoutes } from './modules/stories/routes.ts';
import { metaRoutes } from './modules/meta/routes.ts';
import { pageRoutes } from './modules/pages/routes.ts';
import { publishingService } from './modules/publishing/service.ts';
import { publishingRoutes } from './modules/publishing/routes.ts';
import { publishingJobs } from './modules/publishing/jobs.ts';
import { coversService } from './modules/covers/service.ts';
import { renderCover } from './modules/covers/art.ts';
import { coverRoutes } from './modules/covers/routes.ts';
import { engagementService, ROLLUP_JOB } from './modules/engagement/service.ts';
import { engagementRoutes } from './modules/engagement/routes.ts';
import { engagementJobs } from './modules/engagement/jobs.ts';
import { commentsService } from './modules/comments/service.ts';
import { commentRoutes } from './modules/comments/routes.ts';
import { socialService } from './modules/social/service.ts';
import { socialRoutes } from './modules/social/routes.ts';
import { notificationsService } from './modules/notifications/service.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { notificationJobs } from './modules/notifications/jobs.ts';
import { loadVapidKeys } from './modules/notifications/vapid.ts';
import { webPushSender } from './modules/notifications/push.ts';
import { startJobQueue, type JobQueue } from './jobs/queue.ts';
import { mailService } from './modules/mail/service.ts';
import { mailRoutes } from './modules/mail/routes.ts';
import { mailJobs } from './modules/mail/jobs.ts';
import { mailTransport, type MailTransport } from './modules/mail/transport.ts';
import { loadWebBuild } from './modules/pages/ssr.ts';
import { startCarrier, type Carrier } from './adapters/carrier.ts';
import { carrierDispatch, type CarrierDispatch } from './modules/carrier/dispatch.ts';
import { carrierRoutes } from './modules/carrier/routes.ts';
import { membershipService } from './modules/membership/service.ts';
import { membershipRoutes } from './modules/membership/routes.ts';
import { membershipJobs } from './modules/membership/jobs.ts';
import { alertsService } from './modules/alerts/service.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { alertJobs } from './modules/alerts/jobs.ts';
import { statisticsService } from './modules/statistics/service.ts';
import { statisticsRoutes } from './modules/statistics/routes.ts';
import { statisticsJobs } from './modules/statistics/jobs.ts';
import { leaderboardService } from './modules/leaderboard/service.ts';
import { leaderboardRoutes } from './modules/leaderboard/routes.ts';
import { healthRepo } from './modules/health/repo.ts';
import { healthService } from './modules/health/service.ts';
import { healthRoutes } from './modules/health/routes.ts';

const STATIC_PATHS =
  /^\/(assets\/|images\/|favicon|icon|manifest\.webmanifest|robots\.txt|prepaint\.js|sw\.js)/;

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

/** Builds the whole server: plugins, adapters and modules in one explicit list. Does not listen. */

/** The global rate limit's window: a budget a minute per address. */
const RATE_WINDOW_MS = 60_000;

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
  const queue = await startJobQueue(database, {
    pollingIntervalSeconds: config.jobPollSeconds,
  });
  const dispatch = carrierDispatch();
  const carrier = await startCarrier(config, {
    dataDir: memory ? null : config.dataDir,
    secrets,
  });

  const log = opts.logger ? serverLogger() : null;
  const app = Fastify({
    ...(log ? { loggerInstance: log.logger } : { logger: false }),
    // One line per request from installRequestLog instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
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
  const headers = securityHeaders(config);
  installSecurityHeaders(app, headers);
  // Load shedding next, so a request refused past capacity costs no other work.
  await installPressure(app, config.pressure);
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
  await app.register(compress, { threshold: 1024 });
  installEtags(app);

  // Our plugins.
  installErrorHandling(app);
  installInputHygiene(app);
  // Sessions, stories, episodes and readers' own state are kept in memory; the database's
  // triggers announce each committed change of them to every instance (LISTEN/NOTIFY).
  const changes = changeFeed();
  let cacheBus: CacheBus | null = null;
  const cacheDeps = { feed: changes, live: () => cacheBus?.live() ?? false };
  const auth = authService(authRepo(database.db), keys, cacheDeps);
  installAuth(app, auth);
  const responseCache = installResponseCache(app);
  // Set once pages exist: a change readers can see drops cached answers and rendered pages.
  let clearPages = () => {};
  const dropLocal = () => {
    responseCache.clear();
    clearPages();
  };
  let dropPages: (prefix: string) => void = () => {};
  changes.on((c) => {
    if (c.kind === 'public' || c.kind === 'all') dropLocal();
    // One story's row or episodes (a rating, a new cover, an edit): its own answers and pages
    // now; lists that show it catch up within their few seconds.
    if (c.kind === 'story' || c.kind === 'episodes') {
      const id = c.kind === 'story' ? c.id : c.storyId;
      responseCache.drop(`/api/v1/story/${id}/`);
      dropPages(`/details/${id}/`);
    }
  });
  const bus = await startCacheBus(database, config.databaseUrl, (c) => changes.emit(c));
  cacheBus = bus;
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
  // Public lists and pages: dropped here and announced to the other instances.
  const invalidate = () => {
    dropLocal();
    bus.publishPublic();
  };

  // Modules.
  const repo = storiesRepo(database.db);
  // Stories and authors saved before Singlish keys existed get theirs once (batched; cheap after).
  await repo.backfillSinglishKeys();
  const stories = storiesService(repo, cacheDeps);
  const covers = coversService(storage);
  const publishing = publishingService({
    db: database.db,
    queue,
    covers,
    reissueToken: (viewer) => auth.refresh(viewer),
    invalidate,
  });
  authRoutes(app, auth, { max: config.rateLimit.authMax, timeWindow: '1 minute' });
  storyRoutes(app, stories);
  publishingRoutes(app, publishing);
  commentRoutes(app, commentsService({ db: database.db, queue }));
  await coverRoutes(app, covers, publishing, {
    imagesHost: config.imagesHost,
    uploadsPerMinute: config.rateLimit.uploadMax,
  });
  metaRoutes(app, { keys, storage, stories: repo, publicUrl: config.publicUrl });
  healthRoutes(app, healthService(healthRepo(database.db)));
  await publishingJobs(queue, publishing);
  const engagement = engagementService({
    db: database.db,
    queue,
    reissueToken: (viewer) => auth.refresh(viewer),
    invalidate,
  });
  engagementRoutes(app, engagement);
  await engagementJobs(queue, engagement);
  socialRoutes(app, socialService(database.db));
  await carrierRoutes(app, { db: database.db, dispatch, carrier });
  const membership = membershipService({ db: database.db, billing: carrier.billing });
  membershipRoutes(app, membership);
  dispatch.onSubscription((tx, n) => membership.applyNotification(tx, n));
  await membershipJobs(queue, membership);
  const alerts = alertsService({
    db: database.db,
    queue,
    sms: carrier.sms,
    publicUrl: config.publicUrl,
  });
  alertRoutes(app, alerts);
  await alertJobs(queue, alerts, dispatch);
  const statistics = statisticsService({ db: database.db });
  statisticsRoutes(app, statistics);
  await statisticsJobs(queue, statistics);
  const leaderboard = leaderboardService(database.db);
  leaderboardRoutes(app, leaderboard);
  const notifications = notificationsService({
    db: database.db,
    queue,
    push: webPushSender(
      await loadVapidKeys(memory ? null : config.dataDir, config.vapid, secrets),
      {
        allowHttp: !config.production,
      },
    ),
    allowHttpPush: !config.production,
  });
  notificationRoutes(app, notifications);
  await notificationJobs(queue, notifications);
  const mailOut = mailTransport({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    dataDir: config.dataDir,
    memory,
  });
  const mail = mailService({
    db: database.db,
    queue,
    keys,
    transport: mailOut,
    publicUrl: config.publicUrl,
  });
  mailRoutes(app, mail, { max: config.mail.requestMax, timeWindow: '1 minute' });
  await mailJobs(queue, mail);
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

  // The simulator learns our apps' keywords and the members it has not met (the seed's).
  await carrier.provision(database.db);
  await releaseStartup();

  const web = await loadWebBuild(config.webDist);
  if (web) {
    await app.register(fastifyStatic, {
      root: path.join(config.webDist, 'client'),
      prefix: '/',
      wildcard: false,
      index: false,
      // Our own cache-control below; send's default (max-age=0) would overwrite it.
      cacheControl: false,
      setHeaders: (res, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  const pages = pageRoutes(app, {
    web,
    stories,
    leaderboard,
    config: { imagesHost: config.imagesHost, publicUrl: config.publicUrl },
  });
  clearPages = pages.clear;
  dropPages = pages.drop;

  // Pages rendered here and 404s count against the same budget as every route (as the
  // rate-limit plugin documents for not-found handlers).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const formPage =
      request.method === 'POST' && (request.headers.accept ?? '').includes('text/html')
        ? pages.formPage(request.url)
        : null;
    if (formPage) return reply.code(303).header('location', formPage).send();
    const isPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) return pages.render(request, reply);
    return reply
      .status(404)
      .send({ code: ResultCode.notFound, message: 'There is nothing at this address.' });
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
  return {
    app,
    database,
    storage,
    queue,
    carrier,
    dispatch,
    mail: mailOut,
    keys,
    cacheBus: bus,
  };
}
