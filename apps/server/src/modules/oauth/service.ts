import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  displayUsername,
  LIMITS,
  ResultCode,
  safeRedirect,
  toStored,
  type SignInError,
  type SignInProvider,
} from '@kathamala/domain';
import type { TokenKeys } from '../../auth/keys.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { AppError, conflict, invalid, notFound, unauthorized } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { AuthService } from '../auth/service.ts';
import { generateCodeVerifier, generateState } from 'arctic';
import { SignInFailure, type SignInAdapter } from './providers.ts';
import type { OAuthRepo } from './repo.ts';

/** A sign-in must come back from the provider within this. */
export const FLOW_TTL_SECONDS = 10 * 60;
/** The one-time code in the fragment must be traded for the token within this. */
const HANDOFF_TTL_MS = 2 * 60_000;
/** A verification link works this long, and this many may be sent an hour. */
export const VERIFY_TTL_SECONDS = 24 * 3600;
const VERIFY_PER_HOUR = 3;
export const VERIFY_EMAIL_JOB = 'oauth.verifyEmail';
export const VERIFY_PURPOSE = 'verify-email';

/**
 * The stored password of an account made through a provider: not a hash of anything, so no
 * password ever matches it (verifyPassword refuses any string that is not `scrypt$...`).
 */
export const NO_PASSWORD = '!provider-only';

/** Where /account/ sends a link flow by default, and a sign-in with no `redirect`. */
const ACCOUNT_PATH = '/account/';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** A provider's name as a username: display rules of SPEC.md 5, no control or format characters. */
const baseUsername = (name: string, email: string) => {
  const clean = (raw: string) =>
    toStored(raw)
      .replace(/[\p{Cc}\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/gu, '')
      .trim()
      .replace(/\s+/g, ' ');
  const fromName = displayUsername(clean(name));
  if ([...fromName].length >= LIMITS.usernameMinChars) return fromName;
  const fromEmail = displayUsername(clean(email.split('@')[0]!.replace(/[._+-]+/g, ' ')));
  return [...fromEmail].length >= LIMITS.usernameMinChars ? fromEmail : 'Reader';
};

export interface OAuthDeps {
  repo: OAuthRepo;
  auth: AuthService;
  keys: TokenKeys;
  queue: JobQueue;
  adapters: Map<SignInProvider, SignInAdapter>;
}

/** Where the browser goes once the callback is done: a path on this site, maybe with a fragment. */
export type CallbackEnd = { location: string };

/**
 * Sign-in with Google and Facebook: the flow (state, PKCE, nonce, kept server-side), the
 * account rules (issue 31), linked providers, and e-mail verification for password accounts.
 */
export function oauthService({ repo, auth, keys, queue, adapters }: OAuthDeps) {
  const adapterOf = (provider: SignInProvider) => {
    const adapter = adapters.get(provider);
    if (!adapter) throw notFound('Sign-in with this provider is not available here.');
    return adapter;
  };

  /** A username no one has as readers see it: the name, else the name cut shorter with a number. */
  const uniqueUsername = async (base: string) => {
    if (!(await repo.usernameTaken(base))) return base;
    const graphemes = [...base];
    for (let n = 2; n < 60; n++) {
      const suffix = ` ${n}`;
      const candidate = `${graphemes
        .slice(0, 12 - suffix.length)
        .join('')
        .trim()}${suffix}`;
      if (!(await repo.usernameTaken(candidate))) return candidate;
    }
    return `${graphemes.slice(0, 7).join('').trim()} ${randomBytes(2).readUInt16BE() % 10000}`;
  };

  /** A new account from a provider's profile; a name taken meanwhile is tried again. */
  const newAccount = async (email: string, name: string) => {
    const base = baseUsername(name, email);
    for (let attempt = 0; attempt < 3; attempt++) {
      const username = await uniqueUsername(base);
      const user = await repo.insertUser({ email, username, passwordHash: NO_PASSWORD });
      if (user) return user;
      // The address was taken meanwhile: that account's rules apply, not a new one.
      if (await repo.findUserByEmail(email)) return null;
    }
    throw conflict('Please try again.');
  };

  /** A one-time code the browser trades for the token (the fragment carries it, not the query). */
  const handoff = async (userId: number, redirect: string): Promise<CallbackEnd> => {
    const code = randomBytes(32).toString('base64url');
    await repo.insertHandoff({
      codeHash: sha256(code),
      userId,
      redirect,
      expiresAt: new Date(Date.now() + HANDOFF_TTL_MS),
    });
    return { location: `/login#signin=${code}` };
  };

  /** The account a verified sign-in opens, made or linked by the rules of issue 31. */
  const signIn = async (
    provider: SignInProvider,
    profile: { subject: string; email: string; emailVerified: boolean; name: string },
  ): Promise<number> => {
    const known = await repo.findIdentity(provider, profile.subject);
    if (known) return known.userId;
    const existing = await repo.findUserByEmail(profile.email);
    if (existing) {
      // Linked on its own only when both sides proved the address: otherwise whoever made the
      // account first (or holds the provider account) could take the other's.
      if (!profile.emailVerified || !(await repo.emailVerified(existing.id)))
        throw new SignInFailure('link_required');
      if (!(await repo.link({ userId: existing.id, provider, ...identity(profile) })))
        throw new SignInFailure('already_linked');
      return existing.id;
    }
    const user = await newAccount(profile.email, profile.name);
    if (!user) throw new SignInFailure('link_required');
    if (!(await repo.link({ userId: user.id, provider, ...identity(profile) })))
      throw new SignInFailure('identity_taken');
    if (profile.emailVerified) await repo.markVerified(user.id, profile.email);
    return user.id;
  };

  const identity = (p: { subject: string; email: string }) => ({
    subject: p.subject,
    email: p.email,
  });

  /** Links the provider account to a logged-in user (from /account/). */
  const linkTo = async (
    userId: number,
    provider: SignInProvider,
    profile: { subject: string; email: string },
  ) => {
    const known = await repo.findIdentity(provider, profile.subject);
    if (known) {
      if (known.userId !== userId) throw new SignInFailure('identity_taken');
      return;
    }
    if (!(await repo.link({ userId, provider, ...identity(profile) })))
      throw new SignInFailure('already_linked');
  };

  const failureEnd = (reason: SignInError, redirect: string | null, linking: boolean) => {
    if (linking) return { location: `${ACCOUNT_PATH}?signin=${reason}` };
    const back = redirect && redirect !== '/' ? `&redirect=${encodeURIComponent(redirect)}` : '';
    return { location: `/login?signin=${reason}${back}` };
  };

  return {
    /** The providers that show a button here. */
    providers: (): SignInProvider[] => [...adapters.keys()],

    /** Opens a flow: its state (for the cookie) and the provider's address for the browser. */
    async start(
      provider: SignInProvider,
      redirectParam: string | undefined,
      linkUserId: number | null,
    ) {
      const adapter = adapterOf(provider);
      const state = generateState();
      const verifier = generateCodeVerifier();
      const nonce = randomBytes(16).toString('base64url');
      const redirect = safeRedirect(redirectParam, linkUserId ? ACCOUNT_PATH : '/');
      await repo.insertFlow({
        stateHash: sha256(state),
        provider,
        codeVerifier: verifier,
        nonce,
        redirect,
        linkUserId,
        expiresAt: new Date(Date.now() + FLOW_TTL_SECONDS * 1000),
      });
      return { state, url: adapter.authorizationUrl({ state, verifier, nonce }).toString() };
    },

    /**
     * The provider's answer: the state must be the one this browser's cookie holds and a live
     * flow's (taken once), then the code is traded and the profile read. Ends on the flow's
     * page: /login with the one-time code in the fragment, /account/ after a link, or /login
     * with the reason when anything is wrong (nothing made, nothing linked).
     */
    async callback(
      provider: SignInProvider,
      query: { state?: string; code?: string; error?: string },
      cookieState: string | null,
    ): Promise<CallbackEnd & { reason?: SignInError; detail?: string }> {
      const adapter = adapterOf(provider);
      if (!query.state || !cookieState || query.state !== cookieState)
        return { ...failureEnd('state', null, false), reason: 'state' };
      const flow = await repo.takeFlow(sha256(query.state));
      if (!flow || flow.provider !== provider)
        return { ...failureEnd('state', null, false), reason: 'state' };
      const linking = flow.linkUserId !== null;
      const fail = (reason: SignInError, detail?: string) => ({
        ...failureEnd(reason, flow.redirect, linking),
        reason,
        detail,
      });
      if (flow.expiresAt.getTime() < Date.now()) return fail('expired');
      if (query.error) return fail(query.error === 'access_denied' ? 'cancelled' : 'provider');
      if (!query.code) return fail('provider', 'no code');
      try {
        const profile = await adapter.profile(query.code, {
          verifier: flow.codeVerifier,
          nonce: flow.nonce,
        });
        if (!profile.email) return fail('no_email');
        const found = { ...profile, email: profile.email };
        if (flow.linkUserId !== null) {
          await linkTo(flow.linkUserId, provider, found);
          return {
            location: `${flow.redirect}${flow.redirect.includes('?') ? '&' : '?'}linked=${provider}`,
          };
        }
        return await handoff(await signIn(provider, found), flow.redirect);
      } catch (err) {
        if (err instanceof SignInFailure) return fail(err.reason, err.message);
        throw err;
      }
    },

    /** Trades the fragment's one-time code for a session token, once. */
    async exchange(code: string) {
      const found = await repo.takeHandoff(sha256(code));
      const user = found && (await repo.findUser(found.userId));
      if (!found || !user)
        throw invalid('This sign-in link has expired or was already used. Please sign in again.');
      return { accesstoken: await auth.sessionFor(user), redirect: safeRedirect(found.redirect) };
    },

    /** The sign-in section of /account/. */
    async providersOf(viewer: Viewer) {
      const user = await repo.findUser(viewer.userId);
      if (!user) throw unauthorized();
      const linked = await repo.identitiesOf(user.id);
      return {
        linked: linked.map((i) => ({
          provider: i.provider,
          email: i.email,
          linkedAt: i.createdAt.toISOString(),
        })),
        available: [...adapters.keys()],
        hasPassword: user.passwordHash !== NO_PASSWORD,
        email: user.email,
        emailVerified: await repo.emailVerified(user.id),
      };
    },

    /** Unlinks a provider while another way in remains (a password or another provider). */
    async unlink(viewer: Viewer, provider: SignInProvider) {
      const user = await repo.findUser(viewer.userId);
      if (!user) throw unauthorized();
      const linked = await repo.identitiesOf(user.id);
      if (!linked.some((i) => i.provider === provider))
        throw notFound('This provider is not linked to your account.');
      if (user.passwordHash === NO_PASSWORD && linked.length < 2)
        throw conflict(
          'This is the only way you can sign in to your account, so it cannot be unlinked. Link another provider first.',
        );
      await repo.unlink(user.id, provider);
    },

    /** Sends a verification link to the account's address (by a job, through the mail transport). */
    async requestVerification(viewer: Viewer) {
      const user = await repo.findUser(viewer.userId);
      if (!user) throw unauthorized();
      if (await repo.emailVerified(user.id)) return { email: user.email, verified: true };
      if (
        (await repo.verificationsSince(user.id, new Date(Date.now() - 3600_000))) >= VERIFY_PER_HOUR
      )
        throw new AppError(
          429,
          ResultCode.tooManyRequests,
          'We have sent you several links in the last hour. Please look for them in your mailbox, or try again later.',
        );
      const id = randomUUID();
      await repo.insertVerification({
        id,
        userId: user.id,
        email: user.email,
        expiresAt: new Date(Date.now() + VERIFY_TTL_SECONDS * 1000),
      });
      await queue.send(VERIFY_EMAIL_JOB, { id });
      return { email: user.email, verified: false };
    },

    /** The signed link's token for a verification row (the job puts it in the e-mail). */
    linkToken: (id: string) => keys.signFor(VERIFY_PURPOSE, id, VERIFY_TTL_SECONDS),

    findVerification: (id: string) => repo.findVerification(id),

    /** Proves the address the link was sent to: signed, not expired, once, and still the account's. */
    async verifyEmail(token: string) {
      const refused = () =>
        invalid('This verification link is not valid or has expired. Please ask for a new one.');
      let id: string;
      try {
        id = await keys.verifyFor(token, VERIFY_PURPOSE);
      } catch {
        throw refused();
      }
      const row = await repo.findVerification(id);
      if (!row) throw refused();
      if (!(await repo.useVerification(id)))
        throw invalid(
          'This verification link was already used or has expired. Please ask for a new one.',
        );
      const user = await repo.findUser(row.userId);
      if (!user || user.email.toLowerCase() !== row.email.toLowerCase()) throw refused();
      await repo.markVerified(user.id, user.email);
      return { email: user.email, verified: true };
    },
  };
}
export type OAuthService = ReturnType<typeof oauthService>;
