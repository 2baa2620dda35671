import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  apiPaths,
  ErrorBody,
  MailRequestBody,
  MailSubscribeAnswer,
  MailSubscribeBody,
  Ok,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import { MAIL_ONE_CLICK_PATH, type MailService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody };
const tags = ['member'];
/** The same answer whether or not the address is on the list, or was sent one already. */
const MailRequestAnswer = Type.Object({ email: Type.String() });
const OneClickQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 2_000 }) },
  { additionalProperties: false },
);

/** The mailing list: ask for a confirmation link, subscribe or leave by its token, the account's status. */
export function mailRoutes(
  app: FastifyInstance,
  mail: MailService,
  requestRateLimit: { max: number; timeWindow: string },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    apiPaths.mailRequest(),
    {
      schema: { tags, body: MailRequestBody, response: { 200: Ok(MailRequestAnswer), ...errors } },
      // Each call may send an e-mail: a tight budget per address on top of the per-mailbox count.
      config: { rateLimit: requestRateLimit },
    },
    async (req) => ({ code: 0 as const, object: await mail.request(req.body.email) }),
  );

  r.post(
    apiPaths.mailSubscribe(),
    {
      schema: {
        tags,
        body: MailSubscribeBody,
        response: { 200: Ok(MailSubscribeAnswer), ...errors },
      },
    },
    async (req) => ({
      code: 0 as const,
      object: await mail.subscribe(req.body.token, req.body.subscribed),
    }),
  );

  // One-click unsubscribe (RFC 8058): a mail program posts 'List-Unsubscribe=One-Click' as a
  // form. GET changes nothing (scanners follow links): it leads to the page and its button.
  app.register(async (scope) => {
    const parseForm = (_req: unknown, body: string, done: (err: null, body: string) => void) =>
      done(null, body);
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string' },
      parseForm,
    );
    const s = scope.withTypeProvider<TypeBoxTypeProvider>();
    s.post(
      MAIL_ONE_CLICK_PATH,
      {
        schema: {
          tags,
          querystring: OneClickQuery,
          response: { 200: Ok(MailSubscribeAnswer), ...errors },
        },
      },
      async (req) => ({ code: 0 as const, object: await mail.subscribe(req.query.token, false) }),
    );
    s.get(
      MAIL_ONE_CLICK_PATH,
      {
        schema: {
          tags,
          summary: 'A link from an e-mail: leads to the mailing-list page and its button.',
          querystring: OneClickQuery,
          // Documented only: a redirect sends no body to serialize.
          response: { 303: { description: 'To /mail/ with the token.', type: 'null' } },
        },
      },
      async (req, reply) =>
        reply.redirect(
          `/mail/?${new URLSearchParams({ token: req.query.token, action: 'unsubscribe' })}`,
          303,
        ),
    );
  });

  r.get(
    apiPaths.mailStatus(),
    {
      schema: { tags, response: { 200: Ok(MailSubscribeAnswer), ...errors } },
      config: { auth: 'required' },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { code: 0 as const, object: await mail.status(requireViewer(req)) };
    },
  );
}
