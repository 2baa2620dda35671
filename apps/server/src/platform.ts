import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { EventDispatch } from './jobs/events.ts';
import type { ObjectStorage } from './adapters/storage/types.ts';
import type { Carrier } from './adapters/carrier.ts';
import type { CarrierDispatch } from './modules/carrier/dispatch.ts';
import type { TokenKeys } from './auth/keys.ts';
import type { SharedSecrets } from './auth/deployment-secrets.ts';
import type { CacheDeps, ChangeFeed } from './cache/changes.ts';
import type { ResponseCache } from './plugins/response-cache.ts';

/**
 * What the server hands every module (modules/<name>/module.ts): the app to add its routes and
 * hooks to, the database, the job queue, the adapters, and the caches' feed of changes. A module
 * registers everything it owns (routes, jobs, cache listeners) in its one exported function.
 */
export interface Platform {
  app: FastifyInstance;
  config: Config;
  db: Db;
  /** The database for the reading path, on connections writers do not hold (Database.readDb). */
  readDb: Db;
  queue: JobQueue;
  /** Asks for the jobs of events recorded without them (a comment's), jobs/events.ts. */
  events: EventDispatch;
  storage: ObjectStorage;
  carrier: Carrier;
  /** Where verified carrier notifications go: modules register their handlers on it. */
  dispatch: CarrierDispatch;
  keys: TokenKeys;
  secrets: SharedSecrets;
  /** True in tests that keep everything in memory (no data directory). */
  memory: boolean;
  /** What services keeping things in memory hear changes on, and whether they can. */
  cache: CacheDeps;
  /** Where every cache of this instance hears of changes, the database's and its own. */
  changes: ChangeFeed;
  /** Short-lived public API answers (config.cache on a route). */
  responseCache: ResponseCache;
  /** Drops public lists and pages here, and tells the other instances to. */
  invalidate(): void;
}
