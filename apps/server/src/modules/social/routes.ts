import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorBody,
  FollowAnswer,
  FollowBody,
  FollowingList,
  FollowState,
  IdParam,
  Ok,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { SocialService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
const tags = ['community'];
const AuthorParams = Type.Object({ authorId: IdParam }, { additionalProperties: false });

/**
 * Follows (the Follow button on author pages, the following list on /account). Readers' public
 * profiles (where a mention of them leads) are the community module's.
 */
export function socialRoutes(app: FastifyInstance, social: SocialService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.put(
    '/api/v1/community/user/follow',
    {
      schema: { tags, body: FollowBody, response: { 200: Ok(FollowAnswer), ...errors } },
      config: { auth: 'required' },
    },
    async (req) => ({
      code: 0 as const,
      object: await social.setFollow(requireViewer(req), req.body.followed_id, req.body.following),
    }),
  );

  r.get(
    '/api/v1/community/user/following',
    {
      schema: { tags, response: { 200: Ok(FollowingList), ...errors } },
      config: { auth: 'required' },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { code: 0 as const, object: await social.following(requireViewer(req)) };
    },
  );

  r.get(
    '/api/v1/community/author/:authorId/follow',
    { schema: { tags, params: AuthorParams, response: { 200: Ok(FollowState), ...errors } } },
    async (req, reply) => {
      // The answer depends on who asks: no shared cache may keep it.
      reply.header('cache-control', 'private, no-store');
      return {
        code: 0 as const,
        object: await social.authorFollow(req.viewer, req.params.authorId),
      };
    },
  );
}
