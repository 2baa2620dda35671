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
  UserProfile,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { SocialService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
const tags = ['community'];
const AuthorParams = Type.Object({ authorId: IdParam }, { additionalProperties: false });
const UserParams = Type.Object({ id: IdParam }, { additionalProperties: false });

/**
 * Follows (the Follow button on author pages, the following list on /account) and readers'
 * public profiles (where a mention of them leads).
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
    '/api/v1/community/user/profile/:id',
    { schema: { tags, params: UserParams, response: { 200: Ok(UserProfile), ...errors } } },
    async (req) => ({ code: 0 as const, object: await social.profile(req.params.id) }),
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
