import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AUTHORING,
  DeletedAnswer,
  EpisodeIdParams,
  ErrorBody,
  Ok,
  OwnEpisodeList,
  OwnEpisodeWithContent,
  OwnStoryList,
  PublishEpisodeAnswer,
  PublishEpisodeBody,
  PublishStoryAnswer,
  PublishStoryBody,
  RegisterAuthorAnswer,
  RegisterAuthorBody,
  StoryIdParams,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { PublishingService } from './service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
};
const tags = ['author'];
const mine = { auth: 'required' } as const;

/** Authors: registration, writing and publishing (SPEC.md 7, the authors-publish issue). */
export function publishingRoutes(app: FastifyInstance, publishing: PublishingService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v1/author/register/',
    {
      schema: {
        tags,
        body: RegisterAuthorBody,
        response: { 200: Ok(RegisterAuthorAnswer), ...errors },
      },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await publishing.registerAuthor(requireViewer(req), req.body),
    }),
  );

  r.post(
    '/api/v1/author/publish/story/webapp',
    {
      schema: {
        tags,
        body: PublishStoryBody,
        response: { 200: Ok(PublishStoryAnswer), ...errors },
      },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await publishing.saveStory(requireViewer(req), req.body.story),
    }),
  );

  r.post(
    '/api/v1/author/publish/episode/webapp',
    {
      schema: {
        tags,
        body: PublishEpisodeBody,
        response: { 200: Ok(PublishEpisodeAnswer), ...errors },
      },
      config: mine,
      // An episode may be 200 KB of Sinhala text: the general 64 KB limit is for everything else.
      bodyLimit: AUTHORING.episodeBodyBytes,
    },
    async (req) => ({
      code: 0 as const,
      object: await publishing.saveEpisode(requireViewer(req), req.body.episode),
    }),
  );

  r.get(
    '/api/v1/author/story/list/webapp',
    { schema: { tags, response: { 200: Ok(OwnStoryList), ...errors } }, config: mine },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { code: 0 as const, object: await publishing.ownStories(requireViewer(req)) };
    },
  );

  r.get(
    '/api/v1/author/episodes/:id/webapp',
    {
      schema: { tags, params: StoryIdParams, response: { 200: Ok(OwnEpisodeList), ...errors } },
      config: mine,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: await publishing.ownEpisodes(requireViewer(req), req.params.id),
      };
    },
  );

  r.get(
    '/api/v1/author/episode/:id/webapp',
    {
      schema: {
        tags,
        params: EpisodeIdParams,
        response: { 200: Ok(OwnEpisodeWithContent), ...errors },
      },
      config: mine,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: await publishing.ownEpisode(requireViewer(req), req.params.id),
      };
    },
  );

  r.delete(
    '/api/v1/author/episode/:id/webapp',
    {
      schema: { tags, params: EpisodeIdParams, response: { 200: Ok(DeletedAnswer), ...errors } },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await publishing.deleteEpisode(requireViewer(req), req.params.id),
    }),
  );
}
