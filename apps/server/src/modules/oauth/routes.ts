import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorBody,
  HandoffAnswer,
  HandoffBody,
  LinkStartAnswer,
  Ok,
  ProviderParam,
  SignInProvidersAnswer,
  SignInStartQuery,
  UserProvidersAnswer,
  VerifyEmailAnswer,
  VerifyEmailBody,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import { unauthorized } from '../../errors.ts';
import { FLOW_TTL_SECONDS, type OAuthService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const tags = ['user'];

/** The cookie that ties a flow's state to the browser that started it (login CSRF). */
const FLOW_COOKIE = 'kathamala_signin';
const COOKIE_PATH = '/api/v1/auth/';

/** The flow cookie's value in a Cookie header, or null. */
export const flowCookieOf = (header: string | undefined): string | null => {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return value.join('=') || null;
  }
  return null;
};

/** A redirect: no body, the address in Location. */
const Redirected = Type.Null({ description: 'The browser goes on to the address in Location.' });

/** The callback's query as providers send it (they add parameters of their own: allowed). */
const CallbackQuery = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 500 })),
  code: Type.Optional(Type.String({ maxLength: 2_000 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});

/**
 * Provider sign-in (issue 31): start and callback, the one-time code's exchange, the linked
 * providers of /account/, and e-mail verification.
 */
export function oauthRoutes(
  app: FastifyInstance,
  oauth: OAuthService,
  opts: { rateLimit: object; secure: boolean },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const cookie = (value: string, maxAge: number) =>
    `${FLOW_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax` +
    (opts.secure ? '; Secure' : '');

  r.get(
    '/api/v1/auth/providers',
    { schema: { tags, response: { 200: Ok(SignInProvidersAnswer) } } },
    async (_req, reply) => {
      // The same for every visitor until the server restarts with other settings.
      reply.header('cache-control', 'public, max-age=300');
      return { code: 0 as const, object: { providers: oauth.providers() } };
    },
  );

  r.get(
    '/api/v1/auth/:provider/start',
    {
      schema: {
        tags,
        params: ProviderParam,
        querystring: SignInStartQuery,
        response: { 200: Ok(LinkStartAnswer), 302: Redirected, ...errors },
      },
      config: { rateLimit: opts.rateLimit, writes: true },
    },
    async (req, reply) => {
      // Linking is for a logged-in reader, whose token the page sends (a navigation cannot):
      // the answer is then the provider's address, which the page opens.
      const linking = req.query.link === '1';
      if (linking && !req.viewer) throw unauthorized();
      const { state, url } = await oauth.start(
        req.params.provider,
        req.query.redirect,
        linking ? req.viewer!.userId : null,
      );
      reply.header('set-cookie', cookie(state, FLOW_TTL_SECONDS));
      reply.header('cache-control', 'no-store');
      if (linking) return { code: 0 as const, object: { url } };
      return reply.redirect(url, 302);
    },
  );

  r.get(
    '/api/v1/auth/:provider/callback',
    {
      schema: {
        tags,
        description:
          'Where the provider sends the browser back: it ends on /login with a one-time code in the fragment, on /account/ after a link, or on /login?signin=<reason> (nothing made or linked).',
        params: ProviderParam,
        querystring: CallbackQuery,
        response: { 302: Redirected, ...errors },
      },
      config: { rateLimit: opts.rateLimit, writes: true },
    },
    async (req, reply) => {
      const end = await oauth.callback(
        req.params.provider,
        req.query,
        flowCookieOf(req.headers.cookie),
      );
      if (end.reason) req.log.info({ reason: end.reason, detail: end.detail }, 'sign-in refused');
      reply.header('set-cookie', cookie('', 0));
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(end.location, 302);
    },
  );

  r.post(
    '/api/v1/auth/handoff',
    {
      schema: { tags, body: HandoffBody, response: { 200: Ok(HandoffAnswer), ...errors } },
      config: { rateLimit: opts.rateLimit },
    },
    async (req) => ({ code: 0 as const, object: await oauth.exchange(req.body.code) }),
  );

  r.get(
    '/api/v1/user/providers',
    {
      schema: { tags, response: { 200: Ok(UserProvidersAnswer), ...errors } },
      config: { auth: 'required' },
    },
    async (req) => ({ code: 0 as const, object: await oauth.providersOf(requireViewer(req)) }),
  );

  r.delete(
    '/api/v1/user/providers/:provider',
    {
      schema: {
        tags,
        params: ProviderParam,
        response: { 200: Ok(UserProvidersAnswer), ...errors },
      },
      config: { auth: 'required' },
    },
    async (req) => {
      const viewer = requireViewer(req);
      await oauth.unlink(viewer, req.params.provider);
      return { code: 0 as const, object: await oauth.providersOf(viewer) };
    },
  );

  r.post(
    '/api/v1/user/email/verify/request',
    {
      schema: { tags, response: { 200: Ok(VerifyEmailAnswer), ...errors } },
      config: { auth: 'required', rateLimit: opts.rateLimit },
    },
    async (req) => ({
      code: 0 as const,
      object: await oauth.requestVerification(requireViewer(req)),
    }),
  );

  r.post(
    '/api/v1/user/email/verify',
    {
      schema: { tags, body: VerifyEmailBody, response: { 200: Ok(VerifyEmailAnswer), ...errors } },
      config: { rateLimit: opts.rateLimit },
    },
    async (req) => ({ code: 0 as const, object: await oauth.verifyEmail(req.body.token) }),
  );
}
