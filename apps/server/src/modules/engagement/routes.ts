import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  BookmarkAnswer,
  BookmarkList,
  BookmarkParams,
  ContinueList,
  ErrorBody,
  Ok,
  ProgressBody,
  RateAnswer,
  RateBody,
  StoryIdParams,
  ViewAnswer,
  ViewBody,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { EngagementService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };
const loggedIn = { auth: 'required' } as const;
const ProgressAnswer = Type.Object({ saved: Type.Boolean() });

/** Every answer here is the viewer's own: never kept by a browser or proxy. */
const privateAnswer = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/** Ratings and claps, bookmarks, reading progress and views (the readers-engage issue). */
export function engagementRoutes(app: FastifyInstance, engagement: EngagementService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['engagement'];

  r.post(
    '/api/v1/story/rate/:id/',
    {
      schema: {
        tags,
        params: StoryIdParams,
        body: RateBody,
        response: { 200: Ok(RateAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await engagement.rate(requireViewer(req), req.params.id, req.body.rating),
      };
    },
  );

  // Registered before the two-segment route for clarity; the router tells them apart anyway.
  r.get(
    '/api/v1/story/bookmark/list',
    { schema: { tags, response: { 200: Ok(BookmarkList), ...errors } }, config: loggedIn },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await engagement.bookmarks(requireViewer(req)) };
    },
  );

  r.get(
    '/api/v1/story/bookmark/:storyId/:state',
    {
      schema: { tags, params: BookmarkParams, response: { 200: Ok(BookmarkAnswer), ...errors } },
      config: { ...loggedIn, writes: true },
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await engagement.bookmark(requireViewer(req), req.params.storyId, req.params.state),
      };
    },
  );

  r.post(
    '/api/v1/story/progress/',
    {
      schema: { tags, body: ProgressBody, response: { 200: Ok(ProgressAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await engagement.saveProgress(requireViewer(req), req.body),
      };
    },
  );

  r.get(
    '/api/v1/story/progress/list',
    { schema: { tags, response: { 200: Ok(ContinueList), ...errors } }, config: loggedIn },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await engagement.continueReading(requireViewer(req)) };
    },
  );

  r.post(
    '/api/v1/stats/story/:id/view/',
    {
      schema: {
        tags,
        params: StoryIdParams,
        body: ViewBody,
        response: { 200: Ok(ViewAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await engagement.view(
          requireViewer(req),
          req.params.id,
          req.body.partNumber,
          req.body.medium,
        ),
      };
    },
  );
}
