import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  MembershipDetails,
  Ok,
  SubscribeAnswer,
  SubscribeBody,
  UnsubscribeAnswer,
  UnsubscribeBody,
  VerifyAnswer,
  VerifyBody,
  apiPaths,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { MembershipService } from './service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  410: ErrorBody,
  429: ErrorBody,
  503: ErrorBody,
};
const loggedIn = { auth: 'required' } as const;

/** Every answer here is the viewer's own: never kept by a browser or proxy. */
const privateAnswer = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/** Joining, verifying and leaving a membership (SPEC.md 7; the membership issue). */
export function membershipRoutes(app: FastifyInstance, membership: MembershipService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['membership'];

  r.post(
    apiPaths.memberSubscribe(),
    {
      schema: { tags, body: SubscribeBody, response: { 200: Ok(SubscribeAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await membership.subscribe(requireViewer(req), req.body) };
    },
  );

  r.post(
    apiPaths.memberVerify(),
    {
      schema: { tags, body: VerifyBody, response: { 200: Ok(VerifyAnswer), ...errors } },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await membership.verify(requireViewer(req), req.body) };
    },
  );

  r.get(
    apiPaths.memberDetails(),
    { schema: { tags, response: { 200: Ok(MembershipDetails), ...errors } }, config: loggedIn },
    async (req, reply) => {
      privateAnswer(reply);
      return { code: 0 as const, object: await membership.details(requireViewer(req)) };
    },
  );

  r.post(
    apiPaths.memberUnsubscribe(),
    {
      schema: {
        tags,
        body: UnsubscribeBody,
        response: { 200: Ok(UnsubscribeAnswer), ...errors },
      },
      config: loggedIn,
    },
    async (req, reply) => {
      privateAnswer(reply);
      return {
        code: 0 as const,
        object: await membership.unsubscribe(requireViewer(req), req.body.appId),
      };
    },
  );
}
