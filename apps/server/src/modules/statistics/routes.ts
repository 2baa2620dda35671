import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AuthorStats, ErrorBody, Ok, StatsQuery, Summary } from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { StatisticsService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };
const tags = ['author'];
const StatsAnswer = Type.Object({ stats: AuthorStats });
const SummaryAnswer = Type.Object({ summary: Summary });

/** An author's own statistics (the statistics issue): private answers, never cached by anyone. */
export function statisticsRoutes(app: FastifyInstance, stats: StatisticsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/stats/author/',
    {
      schema: { tags, querystring: StatsQuery, response: { 200: Ok(StatsAnswer), ...errors } },
      config: { auth: 'required' },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: { stats: await stats.authorStats(requireViewer(req), req.query.period) },
      };
    },
  );

  r.get(
    '/api/v1/stats/summaryV2/',
    {
      schema: { tags, querystring: StatsQuery, response: { 200: Ok(SummaryAnswer), ...errors } },
      config: { auth: 'required' },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: { summary: await stats.summary(requireViewer(req), req.query.period) },
      };
    },
  );
}
