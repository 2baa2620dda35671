import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { ResultCode } from '@kathamala/domain';

/** When the server counts itself past capacity (0 switches a check off). */
export interface PressureConfig {
  /** Mean event-loop delay over a sample, in ms: every request waits at least this long. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use, in bytes: near the heap limit garbage collection takes over the CPU. */
  maxHeapUsedBytes: number;
  /** The process's resident memory, in bytes (a container's memory limit, less a margin). */
  maxRssBytes: number;
  /**
   * Requests being answered at once. On PGlite (one connection) and on a full PostgreSQL pool
   * they queue for the database without blocking the event loop, so the delay check alone
   * would let the queue, and every reader's wait, grow without bound.
   */
  maxInFlight: number;
  /** What Retry-After says, in seconds. */
  retryAfterSeconds: number;
  /** How often memory and event-loop delay are sampled, in ms (tests make it short). */
  sampleIntervalMs?: number;
}

/**
 * Requests never refused: health checks (a proxy must see the instance alive; it is busy, not
 * down) and the files a page needs (cheap, cached, served without the database).
 */
export const PRESSURE_EXEMPT =
  /^\/(healthz|api\/health|assets\/|images\/|favicon|icon|manifest\.webmanifest|robots\.txt|prepaint\.js|sw\.js)/;

/** The answer past capacity: 503, Retry-After and a sentence, in the `{code, message}` shape. */
function busy(reply: FastifyReply, retryAfterSeconds: number) {
  reply.status(503).header('retry-after', String(retryAfterSeconds));
  return {
    code: ResultCode.tooManyRequests,
    message: `Kathamala is very busy right now. Please try again in ${retryAfterSeconds} seconds.`,
  };
}

/**
 * Load shedding: past capacity (event-loop delay, heap, RSS, requests in flight) every request
 * but health checks and static files is answered at once with 503 and Retry-After, so a
 * proxy or client backs off instead of queueing until it times out. Register before the rate
 * limiter, so a refused request costs no database work.
 */
export async function installPressure(app: FastifyInstance, config: PressureConfig) {
  const exempt = (request: FastifyRequest) => PRESSURE_EXEMPT.test(request.url);
  const interval = config.sampleIntervalMs ?? 1000;
  // Start-up (migrations, the seed on PGlite) blocks the event loop for seconds; the samples
  // taken then say nothing about serving, so the sampled checks count from two samples after.
  let armedAt = Infinity;
  app.addHook('onReady', async () => {
    armedAt = Date.now() + 2 * interval;
  });
  // The plugin samples event-loop delay, heap and RSS; its own per-request hook reads each
  // request's route options (a getter that builds an object), so it is registered in a context
  // of its own with no routes, and the one hook below asks it through isUnderPressure().
  let underPressureNow = () => false;
  await app.register(async (sampler) => {
    await sampler.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelayMs,
      maxHeapUsedBytes: config.maxHeapUsedBytes,
      maxRssBytes: config.maxRssBytes,
      sampleInterval: interval,
    });
    underPressureNow = () => sampler.isUnderPressure();
  });

  let inFlight = 0;
  const countInFlight = config.maxInFlight > 0;
  // A plain callback: it runs on every request. 'close' fires once per response whether it
  // was sent in full or the client went away, so the count cannot leak.
  app.addHook('onRequest', (request, reply, done) => {
    if (exempt(request)) return done();
    const full = countInFlight && inFlight >= config.maxInFlight;
    if (full || (underPressureNow() && Date.now() >= armedAt)) {
      void reply.send(busy(reply, config.retryAfterSeconds));
      return;
    }
    if (countInFlight) {
      inFlight++;
      reply.raw.once('close', () => inFlight--);
    }
    done();
  });
}
