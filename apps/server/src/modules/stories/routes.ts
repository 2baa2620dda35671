import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import type { DetailsView, StoriesService } from './service.ts';
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

  /**
   * The episode a part request asks for, from memory alone; undefined when anything must be
   * read first, or the address or the reader is refused (the route's handler then words it).
   * The address is checked by the route's own compiled params validator, on a copy.
   */
  const keptPart = (req: FastifyRequest): DetailsView | undefined => {
    const params = { ...(req.params as Record<string, string>) };
    const valid = req.getValidationFunction('params');
    if (!valid || !valid(params)) return undefined;
    const { id, n } = params as unknown as { id: number; n: number };
    try {
      return stories.keptPartView(id, n, req.viewer!);
    } catch {
      return undefined;
    }
  };

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
      // sendPart compresses, once per kept body; a GET has no body to decompress.
      compress: false,
      decompress: false,
      // A reader turning pages: once the rate limit and the token check have passed, an
      // episode whose session, story, access and text are all in memory is sent at once.
      preParsing: (req, reply, _payload, done) => {
        const kept = req.viewer && keptPart(req);
        if (!kept) return done();
        sendPart(req, reply, partAnswerBody(kept));
      },
    },
    (req, reply) => {
      const viewer = requireViewer(req);
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
