import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CommentAnswer,
  CommentBody,
  CommentDeleteBody,
  CommentsAnswer,
  CommentsQuery,
  ErrorBody,
  IdParam,
  Ok,
  RemovedAnswer,
  RepliesAnswer,
  ReplyBody,
  ReportAnswer,
  ReportBody,
  StoryIdParams,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { CommentsService } from './service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
};
const tags = ['comments'];
const loggedIn = { auth: 'required' } as const;
const CommentIdParams = Type.Object({ commentId: IdParam }, { additionalProperties: false });

/** Comments, replies and reports on episodes (SPEC.md 3, 7). Every call needs a login. */
export function commentRoutes(app: FastifyInstance, comments: CommentsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/story/comments/v2/:id/',
    {
      schema: {
        tags,
        params: StoryIdParams,
        querystring: CommentsQuery,
        response: { 200: Ok(CommentsAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: await comments.list(requireViewer(req), req.params.id, req.query.episode),
      };
    },
  );

  r.post(
    '/api/v1/story/comment/',
    {
      schema: { tags, body: CommentBody, response: { 200: Ok(CommentAnswer), ...errors } },
      config: loggedIn,
    },
    async (req) => ({
      code: 0 as const,
      object: await comments.post(requireViewer(req), req.body),
    }),
  );

  r.delete(
    '/api/v1/story/comment/',
    {
      schema: { tags, body: CommentDeleteBody, response: { 200: Ok(RemovedAnswer), ...errors } },
      config: loggedIn,
    },
    async (req) => ({
      code: 0 as const,
      object: await comments.remove(requireViewer(req), req.body),
    }),
  );

  r.post(
    '/api/v1/story/comment/reply/',
    {
      schema: { tags, body: ReplyBody, response: { 200: Ok(CommentAnswer), ...errors } },
      config: loggedIn,
    },
    async (req) => ({
      code: 0 as const,
      object: await comments.reply(requireViewer(req), req.body),
    }),
  );

  r.get(
    '/api/v1/story/comment/reply/:commentId/list/',
    {
      schema: { tags, params: CommentIdParams, response: { 200: Ok(RepliesAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: await comments.replies(requireViewer(req), req.params.commentId),
      };
    },
  );

  r.post(
    '/api/v1/story/comment/report/',
    {
      schema: { tags, body: ReportBody, response: { 200: Ok(ReportAnswer), ...errors } },
      config: loggedIn,
    },
    async (req) => ({
      code: 0 as const,
      object: await comments.report(requireViewer(req), req.body),
    }),
  );
}
