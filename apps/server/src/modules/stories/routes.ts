import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AuthorStoryList,
  ErrorBody,
  ListQuery,
  Ok,
  PartParams,
  PremiumList,
  SearchQuery,
  SeasonList,
  SeasonListBody,
  StoryDetails,
  StoryIdParams,
  StoryPage,
  TrendingList,
  UpcomingList,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { StoriesService } from './service.ts';
import { partAnswerBody, sendPart } from './part-answer.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** Server-side, answers stay this long; publishing will clear the cache (ResponseCache). */
const PUBLIC_CACHE = { ttlMs: 5_000 };

/** Lists change when an episode is published; a minute of staleness is fine for readers. */
const publicCache = (reply: FastifyReply) =>
  reply.header('cache-control', 'public, max-age=60, stale-while-revalidate=600');

/** Reading: the story calls of SPEC.md 7. */
export function storyRoutes(app: FastifyInstance, stories: StoriesService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['stories'];

  r.get(
    '/api/v1/story/listV2/',
    {
      schema: { tags, querystring: ListQuery, response: { 200: Ok(StoryPage), ...errors } },
      config: { cache: PUBLIC_CACHE },
    },
    async (req, reply) => {
      publicCache(reply);
      return { code: 0 as const, object: await stories.list(req.query) };
    },
  );

  r.get(
    '/api/v1/story/list/upcoming/',
    {
      schema: { tags, response: { 200: Ok(UpcomingList), ...errors } },
      config: { cache: PUBLIC_CACHE },
    },
    async (_req, reply) => {
      publicCache(reply);
      return { code: 0 as const, object: { upcomingStories: await stories.upcoming() } };
    },
  );

  r.get(
    '/api/v1/story/list/trending/',
    {
      schema: { tags, response: { 200: Ok(TrendingList), ...errors } },
      config: { cache: PUBLIC_CACHE },
    },
    async (_req, reply) => {
      publicCache(reply);
      return { code: 0 as const, object: { trending: await stories.trending() } };
    },
  );

  r.get(
    '/api/v1/story/premium/list/',
    {
      schema: { tags, response: { 200: Ok(PremiumList), ...errors } },
      config: { cache: PUBLIC_CACHE },
    },
    async (_req, reply) => {
      publicCache(reply);
      return { code: 0 as const, object: { premium: await stories.premium() } };
    },
  );

  r.get(
    '/api/v1/author/:id/story/list/',
    {
      schema: { tags, params: StoryIdParams, response: { 200: Ok(AuthorStoryList), ...errors } },
      config: { cache: PUBLIC_CACHE },
    },
    async (req, reply) => {
      publicCache(reply);
      return { code: 0 as const, object: await stories.byAuthor(req.params.id) };
    },
  );

  r.get(
    '/api/v1/story/search/',
    {
      schema: { tags, querystring: SearchQuery, response: { 200: Ok(StoryPage), ...errors } },
      config: { cache: PUBLIC_CACHE },
    },
    async (req, reply) => {
      publicCache(reply);
      return { code: 0 as const, object: await stories.search(req.query.query, req.query.page) };
    },
  );

  r.get(
    '/api/v1/story/:id/preview/',
    {
      schema: { tags, params: StoryIdParams, response: { 200: Ok(StoryDetails), ...errors } },
      config: { cache: { ...PUBLIC_CACHE, only: 'visitors' } },
    },
    async (req, reply) => {
      // The preview shows whether *this* viewer is subscribed, so only browsers may keep it.
      reply.header('cache-control', req.viewer ? 'private, no-cache' : 'public, max-age=60');
      return { code: 0 as const, object: await stories.preview(req.params.id, req.viewer) };
    },
  );

  r.get(
    '/api/v1/story/:id/part/number/:n',
    {
      schema: { tags, params: PartParams, response: { 200: Ok(StoryDetails), ...errors } },
      config: { auth: 'required' },
    },
    (req, reply) => {
      const viewer = requireViewer(req);
      // A reader turning pages: session, story, access and text all in memory, answered now.
      const kept = stories.keptPartView(req.params.id, req.params.n, viewer);
      if (kept) return sendPart(req, reply, partAnswerBody(kept));
      return stories
        .partView(req.params.id, req.params.n, viewer)
        .then((view) => sendPart(req, reply, partAnswerBody(view)));
    },
  );

  r.post(
    '/api/v1/series/season/list/',
    { schema: { tags, body: SeasonListBody, response: { 200: Ok(SeasonList), ...errors } } },
    async (req) => ({ code: 0 as const, object: await stories.seasons(req.body.seriesId) }),
  );
}
