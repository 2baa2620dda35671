import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AlertAnswer, AlertParams, ErrorBody, Ok } from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { AlertsService } from './service.ts';

const Forbidden = Type.Object(
  { code: Type.Integer({ minimum: 1 }), message: Type.String() },
  {
    description:
      "Code 8 (subscriptionRequired): turning an alert on needs the reader's mobile subscribed " +
      "to the author's app (the product app when the author has none), members-only story or " +
      "not. The message is SPEC.md 8's alert failure sentence with that app's keyword: " +
      'Subscribe to receive story alerts. Type "REG KATHAMALA" and send a SMS to 77100 ...',
  },
);

/** SMS alerts (the membership issue): the reader's toggle. */
export function alertRoutes(app: FastifyInstance, alerts: AlertsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/story/alert/:id/',
    {
      schema: {
        tags: ['alerts'],
        description:
          "Toggles the reader's SMS alert for a public story: on when it was off, off when it " +
          'was on. Turning it off never needs a subscription.',
        params: AlertParams,
        response: {
          200: Ok(AlertAnswer),
          400: ErrorBody,
          401: ErrorBody,
          403: Forbidden,
          404: ErrorBody,
          429: ErrorBody,
        },
      },
      config: { auth: 'required', writes: true },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { code: 0 as const, object: await alerts.toggle(requireViewer(req), req.params.id) };
    },
  );
}
