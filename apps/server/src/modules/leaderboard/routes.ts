import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AuthorRankings, ErrorBody, LeaderboardQuery, Ok } from '@kathamala/domain';
import type { LeaderboardService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody };

/**
 * The same for everyone, and it moves slowly (views reach story_view_days through a roll-up
 * that runs about once a minute): a minute on the server, cleared early when a rating or an
 * episode clears the response cache.
 */
const RANKINGS_CACHE = { ttlMs: 60_000 };

/**
 * GET /api/v1/stats/authors/ (public): the author leaderboard. `object.authors` is the list of
 * ranked authors (SPEC.md 3); the order and period it was ranked by go beside it in `object`.
 */
export function leaderboardRoutes(app: FastifyInstance, leaderboard: LeaderboardService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/stats/authors/',
    {
      schema: {
        tags: ['stats'],
        querystring: LeaderboardQuery,
        response: { 200: Ok(AuthorRankings), ...errors },
      },
      config: { cache: RANKINGS_CACHE },
    },
    async (req, reply) => {
      reply.header('cache-control', 'public, max-age=60, stale-while-revalidate=300');
      return { code: 0 as const, object: await leaderboard.rankings(req.query) };
    },
  );
}
