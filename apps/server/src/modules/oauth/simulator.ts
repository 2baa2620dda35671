import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { isSignInProvider, ResultCode, type SignInProvider } from '@kathamala/domain';
import { mayUseDevPages } from '../../plugins/dev-pages.ts';
import type { OAuthClient } from '../../config.ts';
import { escapeHtml } from '../mail/service.ts';
import type { Endpoints } from './providers.ts';

/** The client the simulator knows: our server, when no real client id is configured. */
export const SIMULATOR_CLIENT: OAuthClient = {
  clientId: 'kathamala-simulator',
  clientSecret: 'simulator-secret',
};

/** How long a simulated code may wait for its exchange, and a simulated access token lives. */
const CODE_TTL_MS = 60_000;
const TOKEN_TTL_MS = 3_600_000;
/** At most this many codes and tokens kept (a demo server, not a provider). */
const KEPT = 1_000;

interface Identity {
  subject: string;
  email: string;
  name: string;
  verified: boolean;
}

interface IssuedCode extends Identity {
  redirectUri: string;
  challenge: string;
  nonce: string | null;
  expiresAt: number;
  used: boolean;
}

const base = (provider: SignInProvider) => `/dev/oauth/${provider}`;

/**
 * This server's own address as it listens: the server calls the simulator's token and profile
 * endpoints there, on loopback (the public address may be a proxy the loopback check refuses).
 */
export const ownOrigin = (app: FastifyInstance): string => {
  const address = app.server.address() as AddressInfo | null;
  if (!address || typeof address !== 'object')
    throw new Error('The sign-in simulator needs the server to be listening.');
  const host = address.family === 'IPv6' && address.address === '::1' ? '[::1]' : '127.0.0.1';
  return `http://${host}:${address.port}`;
};

/** The simulator's endpoints: the browser's on the public address, the server's on its own. */
export const simulatorEndpoints = (
  provider: SignInProvider,
  publicUrl: string,
  app: FastifyInstance,
): Endpoints => ({
  authorize: `${publicUrl}${base(provider)}/authorize`,
  get token() {
    return `${ownOrigin(app)}${base(provider)}/token`;
  },
  get profile() {
    return `${ownOrigin(app)}${base(provider)}/${provider === 'google' ? 'userinfo' : 'me?fields=id,name,email'}`;
  },
  issuer: `${publicUrl}${base(provider)}`,
});

/** A stable id per provider and address: the same e-mail typed again is the same account. */
const subjectOf = (provider: string, email: string, name: string) =>
  `sim-${createHash('sha256')
    .update(`${provider}\n${email.toLowerCase() || name}`)
    .digest('hex')
    .slice(0, 20)}`;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const keep = <V>(map: Map<string, V>, key: string, value: V) => {
  if (map.size >= KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
};

const field = (v: unknown): string => (typeof v === 'string' ? v : '');

const page = (reply: FastifyReply, status: number, title: string, body: string) =>
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title></head>` +
        `<body style="font-family: sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5">` +
        body +
        `</body></html>`,
    );

const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'nonce',
] as const;

/**
 * A local Google and Facebook for demos and tests (issue 31): an authorization page where a
 * person or a test picks the identity (Email, Name, Email verified), a token endpoint that
 * checks the client, the redirect address and PKCE and takes each code once, and the profile
 * endpoint each provider has (Google's OpenID userinfo, Facebook's Graph /me). Like the other
 * /dev/ pages it answers only on this machine.
 */
export async function simulatorRoutes(
  app: FastifyInstance,
  opts: {
    providers: SignInProvider[];
    publicUrl: string;
    redirectUri: (p: SignInProvider) => string;
  },
) {
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, Identity & { provider: SignInProvider; expiresAt: number }>();
  const idTokenKey = randomBytes(32);
  const providerAuthorization = new WeakMap<FastifyRequest, string | undefined>();

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!mayUseDevPages(request))
        return reply.code(403).send({
          code: ResultCode.forbidden,
          message:
            'The sign-in simulator answers only on the server’s own machine (a loopback address).',
        });
      // The client's credentials and the provider's access tokens are the simulator's to read,
      // not our bearer-token hook's (it would refuse them as sessions of ours).
      providerAuthorization.set(request, request.headers.authorization);
      delete request.headers.authorization;
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    const providerOf = (params: unknown): SignInProvider | null => {
      const name = (params as { provider?: unknown }).provider;
      return isSignInProvider(name) && opts.providers.includes(name) ? name : null;
    };

    /** The request's parameters as a real provider checks them; a sentence when they are wrong. */
    const checkRequest = (provider: SignInProvider, p: Record<string, string>): string | null => {
      if (p.response_type !== 'code') return 'response_type must be code.';
      if (p.client_id !== SIMULATOR_CLIENT.clientId) return 'Unknown client_id.';
      if (p.redirect_uri !== opts.redirectUri(provider)) return 'redirect_uri is not registered.';
      if (!p.state) return 'state is missing.';
      if (p.code_challenge_method !== 'S256' || !p.code_challenge)
        return 'PKCE (S256) is required.';
      return null;
    };

    scope.get('/dev/oauth/:provider/authorize', { schema: { hide: true } }, async (req, reply) => {
      const provider = providerOf(req.params);
      if (!provider) return page(reply, 404, 'Not found', '<p>No such provider.</p>');
      const q = req.query as Record<string, string>;
      const wrong = checkRequest(provider, q);
      if (wrong) return page(reply, 400, 'Error', `<h1>Error 400</h1><p>${escapeHtml(wrong)}</p>`);
      const label = provider === 'google' ? 'Google' : 'Facebook';
      const hidden = PARAMS.map(
        (k) => `<input type="hidden" name="${k}" value="${escapeHtml(field(q[k]))}">`,
      ).join('');
      return page(
        reply,
        200,
        `${label} (simulator)`,
        `<h1>${label} <small>(simulator)</small></h1>` +
          `<p>Kathamala asks for your name and e-mail address. Pick who you are.</p>` +
          `<form method="post">${hidden}` +
          `<p><label>Email<br><input name="email" type="email" autocomplete="off" style="width: 100%"></label></p>` +
          `<p><label>Name<br><input name="name" type="text" autocomplete="off" style="width: 100%"></label></p>` +
          `<p><label><input name="verified" type="checkbox" value="1" checked> Email verified</label></p>` +
          `<p><button type="submit" name="action" value="continue">Continue</button> ` +
          `<button type="submit" name="action" value="cancel">Cancel</button></p>` +
          `</form>`,
      );
    });

    scope.post('/dev/oauth/:provider/authorize', { schema: { hide: true } }, async (req, reply) => {
      const provider = providerOf(req.params);
      if (!provider) return page(reply, 404, 'Not found', '<p>No such provider.</p>');
      const form = (req.body ?? {}) as Record<string, string>;
      const wrong = checkRequest(provider, form);
      if (wrong) return page(reply, 400, 'Error', `<h1>Error 400</h1><p>${escapeHtml(wrong)}</p>`);
      const back = new URL(form.redirect_uri!);
      back.searchParams.set('state', form.state!);
      if (form.action !== 'continue') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user cancelled.');
        return reply.redirect(back.toString(), 302);
      }
      const email = field(form.email).trim();
      const name = field(form.name).trim();
      const code = randomBytes(24).toString('base64url');
      keep(codes, code, {
        subject: subjectOf(provider, email, name),
        email,
        name,
        verified: form.verified === '1',
        redirectUri: form.redirect_uri!,
        challenge: form.code_challenge!,
        nonce: form.nonce || null,
        expiresAt: Date.now() + CODE_TTL_MS,
        used: false,
      });
      back.searchParams.set('code', code);
      return reply.redirect(back.toString(), 302);
    });

    scope.post('/dev/oauth/:provider/token', { schema: { hide: true } }, async (req, reply) => {
      const provider = providerOf(req.params);
      const refuse = (error: string, description: string, status = 400) =>
        reply.code(status).send({ error, error_description: description });
      if (!provider) return refuse('invalid_request', 'No such provider.');
      const basic = /^Basic (.+)$/.exec(providerAuthorization.get(req) ?? '')?.[1];
      const expected = `${SIMULATOR_CLIENT.clientId}:${SIMULATOR_CLIENT.clientSecret}`;
      if (!basic || Buffer.from(basic, 'base64').toString() !== expected)
        return refuse('invalid_client', 'Client authentication failed.', 401);
      const form = (req.body ?? {}) as Record<string, string>;
      if (form.grant_type !== 'authorization_code')
        return refuse('unsupported_grant_type', 'Only authorization_code.');
      const issued = codes.get(field(form.code));
      if (!issued) return refuse('invalid_grant', 'Unknown code.');
      // A code works once (RFC 6749 4.1.2): a second exchange is refused.
      if (issued.used) return refuse('invalid_grant', 'The code was already used.');
      issued.used = true;
      if (issued.expiresAt < Date.now()) return refuse('invalid_grant', 'The code expired.');
      if (issued.redirectUri !== form.redirect_uri)
        return refuse('invalid_grant', 'redirect_uri does not match.');
      if (!form.code_verifier || s256(form.code_verifier) !== issued.challenge)
        return refuse('invalid_grant', 'PKCE verification failed.');
      const accessToken = randomBytes(24).toString('base64url');
      keep(tokens, accessToken, { ...issued, provider, expiresAt: Date.now() + TOKEN_TTL_MS });
      const answer: Record<string, unknown> = {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_MS / 1000,
      };
      if (provider === 'google')
        answer.id_token = await new SignJWT({
          nonce: issued.nonce ?? undefined,
          email: issued.email || undefined,
          email_verified: issued.verified,
        })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(`${opts.publicUrl}${base(provider)}`)
          .setAudience(SIMULATOR_CLIENT.clientId)
          .setSubject(issued.subject)
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(idTokenKey);
      return reply.header('cache-control', 'no-store').send(answer);
    });

    const bearer = (header: string | undefined, provider: SignInProvider) => {
      const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
      const found = token ? tokens.get(token) : undefined;
      return found && found.provider === provider && found.expiresAt > Date.now() ? found : null;
    };

    scope.get('/dev/oauth/google/userinfo', { schema: { hide: true } }, async (req, reply) => {
      const who = bearer(providerAuthorization.get(req), 'google');
      if (!who) return reply.code(401).send({ error: 'invalid_token' });
      return {
        sub: who.subject,
        name: who.name || undefined,
        ...(who.email ? { email: who.email, email_verified: who.verified } : {}),
      };
    });

    // Facebook's Graph API answers an address only once its owner confirmed it, with no flag.
    scope.get('/dev/oauth/facebook/me', { schema: { hide: true } }, async (req, reply) => {
      const who = bearer(providerAuthorization.get(req), 'facebook');
      if (!who) return reply.code(401).send({ error: { message: 'Invalid OAuth access token.' } });
      return {
        id: who.subject,
        name: who.name || undefined,
        ...(who.email && who.verified ? { email: who.email } : {}),
      };
    });
  });
}
