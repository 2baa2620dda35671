import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, ResultCode } from '@kathamala/domain';
import type { HealthService } from './service.ts';

/**
 * GET /healthz for load balancers, container health checks and the proxy: 200 when the
 * database answers `select 1` within a second, else 503. Probes come every few seconds from
 * every proxy and orchestrator, so the route is outside the rate limit and logs only failures.
 */
export function healthRoutes(app: FastifyInstance, health: HealthService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/healthz',
    {
      logLevel: 'warn',
      config: { rateLimit: false },
      schema: {
        tags: ['site'],
        summary: 'Whether this instance and its database can serve',
        response: {
          200: Type.Object({ code: Type.Literal(0), status: Type.Literal('ok') }),
          503: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const result = await health.check();
      if (result.ok) return { code: 0 as const, status: 'ok' as const };
      req.log.warn({ reason: result.reason }, 'health check failed: the database did not answer');
      return reply.status(503).send({
        code: ResultCode.internal,
        message: 'Kathamala cannot reach its database just now. Please try again in a minute.',
      });
    },
  );
}
