import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';

/** How often buffered log lines are written when traffic is too light to fill the buffer. */
const FLUSH_MS = 1_000;

/**
 * The server's logger: JSON lines to stdout through a buffer written asynchronously, so a
 * request never waits on the terminal or a log collector's pipe. At most a second of lines is
 * lost if the process is killed outright; a drain flushes everything.
 */
export function serverLogger(): { logger: FastifyBaseLogger; flush(): void } {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const timer = setInterval(() => destination.flush(), FLUSH_MS);
  timer.unref();
  const logger = pino({ level: 'info' }, destination) as unknown as FastifyBaseLogger;
  return {
    logger,
    flush: () => {
      clearInterval(timer);
      try {
        destination.flushSync();
      } catch {
        // Nothing buffered, or stdout already gone.
      }
    },
  };
}

/** One line per request, written when its answer has gone (Fastify's own two are turned off). */
export function installRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
