import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  NotificationList,
  Ok,
  PushAnswer,
  PushKeyAnswer,
  PushSubscribeBody,
  PushUnsubscribeBody,
  UnreadAnswer,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { NotificationsService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody };
const mine = { auth: 'required' } as const;

/** The notification drawer, its badge, and browsers' Web Push subscriptions. */
export function notificationRoutes(app: FastifyInstance, notifications: NotificationsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/firebase/notifications/',
    {
      schema: { tags: ['notifications'], response: { 200: Ok(NotificationList), ...errors } },
      config: mine,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { code: 0 as const, object: await notifications.list(requireViewer(req)) };
    },
  );

  r.get(
    '/api/v1/firebase/notifications/unread',
    {
      schema: { tags: ['notifications'], response: { 200: Ok(UnreadAnswer), ...errors } },
      config: mine,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { code: 0 as const, object: await notifications.unread(requireViewer(req)) };
    },
  );

  r.get(
    '/api/v1/push/key',
    { schema: { tags: ['notifications'], response: { 200: Ok(PushKeyAnswer), ...errors } } },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { code: 0 as const, object: notifications.pushKey() };
    },
  );

  r.post(
    '/api/v1/push/subscription',
    {
      schema: {
        tags: ['notifications'],
        body: PushSubscribeBody,
        response: { 200: Ok(PushAnswer), ...errors },
      },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await notifications.subscribe(requireViewer(req), req.body),
    }),
  );

  r.delete(
    '/api/v1/push/subscription',
    {
      schema: {
        tags: ['notifications'],
        body: PushUnsubscribeBody,
        response: { 200: Ok(PushAnswer), ...errors },
      },
      config: mine,
    },
    async (req) => ({
      code: 0 as const,
      object: await notifications.unsubscribe(requireViewer(req), req.body.endpoint),
    }),
  );
}
