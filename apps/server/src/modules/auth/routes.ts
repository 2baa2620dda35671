import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ChangeUsernameBody,
  ErrorBody,
  LoginBody,
  LogoutAnswer,
  Me,
  Ok,
  RefreshBody,
  SignupBody,
  TokenAnswer,
  UsernameAnswer,
} from '@kathamala/domain';
import { requireViewer } from '../../plugins/auth.ts';
import type { AuthService } from './service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** Accounts: the paths of SPEC.md 7 plus signup, login and me fixed by the foundation issue. */
export function authRoutes(app: FastifyInstance, auth: AuthService, authRateLimit: object) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/api/v1/user/signup',
    {
      schema: { tags: ['user'], body: SignupBody, response: { 200: Ok(TokenAnswer), ...errors } },
      config: { rateLimit: authRateLimit },
    },
    async (req) => ({ code: 0 as const, object: { accesstoken: await auth.signup(req.body) } }),
  );

  r.post(
    '/api/v1/user/login',
    {
      schema: { tags: ['user'], body: LoginBody, response: { 200: Ok(TokenAnswer), ...errors } },
      config: { rateLimit: authRateLimit },
    },
    async (req) => ({ code: 0 as const, object: { accesstoken: await auth.login(req.body) } }),
  );

  r.post(
    '/api/v1/user/refresh/token/',
    {
      schema: { tags: ['user'], body: RefreshBody, response: { 200: Ok(TokenAnswer), ...errors } },
      config: { auth: 'required' },
    },
    async (req) => ({
      code: 0 as const,
      object: { accesstoken: await auth.refresh(requireViewer(req)) },
    }),
  );

  r.get(
    '/api/v1/user/logout',
    {
      schema: { tags: ['user'], response: { 200: Ok(LogoutAnswer), ...errors } },
      config: { auth: 'required', writes: true },
    },
    async (req) => {
      await auth.logout(requireViewer(req));
      return { code: 0 as const, object: { loggedOut: true } };
    },
  );

  r.patch(
    '/api/v1/user/change-username',
    {
      schema: {
        tags: ['user'],
        body: ChangeUsernameBody,
        response: { 200: Ok(UsernameAnswer), ...errors },
      },
      config: { auth: 'required' },
    },
    async (req) => ({
      code: 0 as const,
      object: { username: await auth.changeUsername(requireViewer(req), req.body.username) },
    }),
  );

  r.get(
    '/api/v1/user/me',
    {
      schema: { tags: ['user'], response: { 200: Ok(Me), ...errors } },
      config: { auth: 'required' },
    },
    async (req) => ({ code: 0 as const, object: await auth.me(requireViewer(req)) }),
  );
}
