import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { loadConfig, oauthSimulatorWarning } from '../../config.ts';
import type { MemoryMailTransport } from '../mail/transport.ts';

/**
 * Sign-in with Google and Facebook against the built-in simulator, over real HTTP: the server
 * listens, the adapters speak OAuth 2.0 (PKCE, state, Google's nonce) to the simulator's
 * endpoints, and the test plays the browser (its cookie, the provider's form, the redirects).
 */
let t: TestApp;
let origin: string;
const PUBLIC = 'http://kathamala.test';

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0', OAUTH_SIMULATOR: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(() => t.close());

/** The public address as this test reaches it (the server's PUBLIC_URL is a name no DNS knows). */
const local = (url: string) => url.replace(PUBLIC, origin).replace(/^\//, `${origin}/`);

let n = 0;
const unique = (label: string) => `${label}.${Date.now().toString(36)}${++n}@example.com`;

interface Identity {
  email: string;
  name: string;
  verified?: boolean;
  cancel?: boolean;
}

/** Starts a flow like a browser does: the provider's address and the flow cookie. */
async function start(provider: string, query = '', token?: string) {
  const res = await fetch(`${origin}/api/v1/auth/${provider}/start${query}`, {
    redirect: 'manual',
    headers: token ? bearer(token) : {},
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const location = token
    ? ((await res.json()) as { object: { url: string } }).object.url
    : res.headers.get('location')!;
  return { status: res.status, cookie, authorize: new URL(local(location)) };
}

/** Fills the simulator's form (or cancels it): the callback address the provider sends back to. */
async function authorize(url: URL, who: Identity) {
  const page = await fetch(url);
  expect(await page.text()).toContain('Email verified');
  const form = new URLSearchParams(url.searchParams);
  form.set('email', who.email);
  form.set('name', who.name);
  if (who.verified !== false) form.set('verified', '1');
  form.set('action', who.cancel ? 'cancel' : 'continue');
  const res = await fetch(url.origin + url.pathname, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return local(res.headers.get('location')!);
}

/** The callback with the browser's cookie: where it ends. */
async function callback(url: string, cookie: string) {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie } });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

/** A whole sign-in: start, the provider's form, the callback. */
async function signIn(provider: string, who: Identity, query = '', token?: string) {
  const { cookie, authorize: url } = await start(provider, query, token);
  const back = await callback(await authorize(url, who), cookie);
  return back;
}

/** Trades the fragment's one-time code for a session token. */
async function exchange(location: string) {
  const code = /^\/login#signin=([\w-]+)$/.exec(location)?.[1];
  expect(code, location).toBeTruthy();
  const res = await fetch(`${origin}/api/v1/auth/handoff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { object: { accesstoken: string; redirect: string } },
  };
}

const api = async (method: string, url: string, token?: string, payload?: object) => {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: token ? bearer(token) : {},
    payload,
  });
  return { status: res.statusCode, body: res.json() };
};

const passwordAccount = async (email: string) => {
  const res = await api('POST', '/api/v1/user/signup', undefined, {
    email,
    password: 'correct horse battery',
    username: `Pw ${++n} ${Date.now().toString(36)}`,
  });
  expect(res.status).toBe(200);
  return res.body.object.accesstoken as string;
};

const mails = () => t.mail as MemoryMailTransport;

/** Asks for a verification link and waits for the job to send it: the link's token. */
async function verificationToken(token: string, email: string) {
  const before = mails().sent.length;
  expect((await api('POST', '/api/v1/user/email/verify/request', token)).status).toBe(200);
  for (
    let i = 0;
    i < 100 &&
    !mails()
      .sent.slice(before)
      .some((m) => m.to === email);
    i++
  )
    await new Promise((r) => setTimeout(r, 100));
  const mail = mails()
    .sent.slice(before)
    .find((m) => m.to === email);
  expect(mail, 'verification e-mail').toBeTruthy();
  return /#verify=([\w.-]+)/.exec(mail!.text)![1]!;
}

const verifyWith = (token: string) =>
  api('POST', '/api/v1/user/email/verify', undefined, { token });

const countUsers = async () =>
  Number((await t.rows<{ n: string }>(sql`select count(*) as n from users`))[0]!.n);
const countIdentities = async () =>
  Number((await t.rows<{ n: string }>(sql`select count(*) as n from oauth_identities`))[0]!.n);

describe('sign-in with a provider (simulator)', () => {
  it('lists the simulated providers for the buttons, cacheable', async () => {
    const res = await fetch(`${origin}/api/v1/auth/providers`);
    expect(res.headers.get('cache-control')).toContain('max-age');
    expect(((await res.json()) as { object: { providers: string[] } }).object.providers).toEqual([
      'google',
      'facebook',
    ]);
  });

  it('a new Google identity makes an account named from the profile and comes back to the page', async () => {
    const email = unique('nimal');
    const { authorize: url, cookie } = await start('google', '?redirect=%2Fdetails%2F7%2F');
    expect(cookie).toMatch(/^kathamala_signin=/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const end = await callback(await authorize(url, { email, name: 'nimal perera silva' }), cookie);
    const { status, body } = await exchange(end);
    expect(status).toBe(200);
    expect(body.object.redirect).toBe('/details/7/');
    const me = await api('GET', '/api/v1/user/me', body.object.accesstoken);
    expect(me.body.object.email).toBe(email);
    // SPEC.md 5: first letter capitalised, 12 characters.
    expect(me.body.object.name).toBe('Nimal perera');
    const providers = await api('GET', '/api/v1/user/providers', body.object.accesstoken);
    expect(providers.body.object).toMatchObject({
      linked: [{ provider: 'google', email }],
      hasPassword: false,
      emailVerified: true,
    });
    // The same identity again signs into the same account.
    const again = await exchange(await signIn('google', { email, name: 'Someone Else' }));
    expect(userOf(again.body.object.accesstoken)).toBe(userOf(body.object.accesstoken));
  });

  it('a second person with the same name gets a name of their own', async () => {
    const a = await exchange(await signIn('google', { email: unique('a'), name: 'Kamala Devi' }));
    const b = await exchange(await signIn('facebook', { email: unique('b'), name: 'Kamala Devi' }));
    const nameA = (await api('GET', '/api/v1/user/me', a.body.object.accesstoken)).body.object.name;
    const nameB = (await api('GET', '/api/v1/user/me', b.body.object.accesstoken)).body.object.name;
    expect(nameA).toBe('Kamala Devi');
    expect(nameB).not.toBe(nameA);
    expect([...nameB].length).toBeLessThanOrEqual(12);
  });

  it('the one-time code works once', async () => {
    const end = await signIn('google', { email: unique('once'), name: 'Once Only' });
    expect((await exchange(end)).status).toBe(200);
    const second = await exchange(end);
    expect(second.status).toBe(400);
  });

  it('a verified identity whose address matches a verified account signs into that account', async () => {
    const email = unique('verified');
    const token = await passwordAccount(email);
    expect((await verifyWith(await verificationToken(token, email))).status).toBe(200);
    const users = await countUsers();
    const end = await signIn('google', { email: email.toUpperCase(), name: 'Verified Person' });
    const { body } = await exchange(end);
    expect(userOf(body.object.accesstoken)).toBe(userOf(token));
    expect(await countUsers()).toBe(users);
    const providers = await api('GET', '/api/v1/user/providers', token);
    expect(providers.body.object.linked.map((l: { provider: string }) => l.provider)).toEqual([
      'google',
    ]);
  });

  it('an unverified match links nothing: told to sign in with the password and link from the account page', async () => {
    // Our account's address is not verified (someone may have signed up with another's address).
    const email = unique('unverified');
    const token = await passwordAccount(email);
    const [users, identities] = [await countUsers(), await countIdentities()];
    expect(
      await signIn(
        'google',
        { email, name: 'Claimant', verified: true },
        '?redirect=%2Fdetails%2F3%2F',
      ),
    ).toBe(`/login?signin=link_required&redirect=${encodeURIComponent('/details/3/')}`);
    // The provider does not vouch for the address (our account's is verified).
    expect((await verifyWith(await verificationToken(token, email))).status).toBe(200);
    expect(await signIn('google', { email, name: 'Claimant', verified: false })).toBe(
      '/login?signin=link_required',
    );
    // Facebook gives no unconfirmed address at all.
    expect(await signIn('facebook', { email, name: 'Claimant', verified: false })).toBe(
      '/login?signin=no_email',
    );
    expect([await countUsers(), await countIdentities()]).toEqual([users, identities]);
  });

  it('refuses a tampered state, a missing cookie, a replayed callback and a reused code', async () => {
    const users = await countUsers();
    const who = { email: unique('tamper'), name: 'Tamper Test' };
    // The state changed on the way back.
    {
      const { cookie, authorize: url } = await start('google');
      const back = new URL(await authorize(url, who));
      back.searchParams.set('state', `${back.searchParams.get('state')}x`);
      expect(await callback(back.toString(), cookie)).toBe('/login?signin=state');
    }
    // Another browser's callback (no flow cookie: login CSRF).
    {
      const { authorize: url } = await start('google');
      expect(await callback(await authorize(url, who), '')).toBe('/login?signin=state');
    }
    // The same callback twice: the state worked once.
    const { cookie, authorize: url } = await start('google');
    const back = await authorize(url, who);
    expect(await callback(back, cookie)).toMatch(/^\/login#signin=/);
    expect(await callback(back, cookie)).toBe('/login?signin=state');
    // The used code with a fresh flow: the provider refuses it.
    const fresh = await start('google');
    const code = new URL(back).searchParams.get('code')!;
    const replay = `${origin}/api/v1/auth/google/callback?state=${fresh.cookie.split('=')[1]}&code=${code}`;
    expect(await callback(replay, fresh.cookie)).toBe('/login?signin=code');
    expect(await countUsers()).toBe(users + 1);
  });

  it('cancel, a profile without e-mail and an expired flow go back to /login and make nothing', async () => {
    const users = await countUsers();
    expect(await signIn('google', { email: unique('c'), name: 'Cancel', cancel: true })).toBe(
      '/login?signin=cancelled',
    );
    expect(await signIn('google', { email: '', name: 'No Mail' })).toBe('/login?signin=no_email');
    const { cookie, authorize: url } = await start('facebook', '?redirect=%2Fbookmarks');
    const back = await authorize(url, { email: unique('late'), name: 'Late' });
    await t.rows(sql`update oauth_flows set expires_at = now() - interval '1 second'`);
    expect(await callback(back, cookie)).toBe('/login?signin=expired&redirect=%2Fbookmarks');
    expect(await countUsers()).toBe(users);
  });

  it('keeps only same-site redirects', async () => {
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const end = await signIn(
        'google',
        { email: unique('r'), name: 'Redirect' },
        `?redirect=${encodeURIComponent(evil)}`,
      );
      expect((await exchange(end)).body.object.redirect).toBe('/');
    }
  });
});

describe('linked providers', () => {
  it('links from the account page (any address), lists, refuses a taken identity, unlinks while another way in remains', async () => {
    const token = await passwordAccount(unique('linker'));
    // Linking needs the reader's token (the account page sends it).
    expect((await fetch(`${origin}/api/v1/auth/google/start?link=1`)).status).toBe(401);
    const googleId = { email: unique('other'), name: 'Linker', verified: false };
    expect(await signIn('google', googleId, '?link=1&redirect=%2Faccount%2F', token)).toBe(
      '/account/?linked=google',
    );
    const listed = await api('GET', '/api/v1/user/providers', token);
    expect(listed.body.object).toMatchObject({
      linked: [{ provider: 'google' }],
      hasPassword: true,
    });
    // The Google account now signs into this one.
    const viaGoogle = await exchange(await signIn('google', googleId));
    expect(userOf(viaGoogle.body.object.accesstoken)).toBe(userOf(token));
    // Someone else cannot link the same Google account to theirs.
    const other = await passwordAccount(unique('second'));
    expect(await signIn('google', googleId, '?link=1', other)).toBe(
      '/account/?signin=identity_taken',
    );
    // A password remains: Google may go.
    const unlinked = await api('DELETE', '/api/v1/user/providers/google', token);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.object.linked).toEqual([]);
    expect((await api('DELETE', '/api/v1/user/providers/google', token)).status).toBe(404);
  });

  it('the only way in cannot be unlinked (409 with a sentence); with a second provider it can', async () => {
    const end = await signIn('google', { email: unique('only'), name: 'Only Google' });
    const token = (await exchange(end)).body.object.accesstoken;
    const refused = await api('DELETE', '/api/v1/user/providers/google', token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/only way you can sign in/);
    expect(
      await signIn('facebook', { email: unique('fb'), name: 'Only Google' }, '?link=1', token),
    ).toBe('/account/?linked=facebook');
    expect((await api('DELETE', '/api/v1/user/providers/google', token)).status).toBe(200);
  });
});

describe('e-mail verification for password accounts', () => {
  it('a signed link, sent by e-mail, works once and not after it expires', async () => {
    const email = unique('verify');
    const token = await passwordAccount(email);
    expect((await api('GET', '/api/v1/user/providers', token)).body.object.emailVerified).toBe(
      false,
    );
    const link = await verificationToken(token, email);
    // Signed: a changed token is refused.
    expect((await verifyWith(`${link.slice(0, -2)}xx`)).status).toBe(400);
    expect((await verifyWith(link)).status).toBe(200);
    expect((await api('GET', '/api/v1/user/providers', token)).body.object.emailVerified).toBe(
      true,
    );
    // Once.
    const again = await verifyWith(link);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already used/);
    // Expired: a link past its time is refused.
    const email2 = unique('verify-late');
    const token2 = await passwordAccount(email2);
    const late = await verificationToken(token2, email2);
    await t.rows(
      sql`update email_verifications set expires_at = now() - interval '1 second' where email = ${email2}`,
    );
    expect((await verifyWith(late)).status).toBe(400);
    expect((await api('GET', '/api/v1/user/providers', token2)).body.object.emailVerified).toBe(
      false,
    );
  });
});

describe('configuration', () => {
  it('a configured provider talks to the real one; one without configuration or simulator shows no button', async () => {
    const real = await createTestApp({
      DEMO_SEED: '0',
      OAUTH_SIMULATOR: '0',
      GOOGLE_CLIENT_ID: 'real-client.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'real-secret',
    });
    try {
      const listed = await real.app.inject({ url: '/api/v1/auth/providers' });
      expect(listed.json().object.providers).toEqual(['google']);
      const start = await real.app.inject({ url: '/api/v1/auth/google/start?redirect=%2F' });
      expect(start.statusCode).toBe(302);
      const url = new URL(start.headers.location as string);
      expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: 'real-client.apps.googleusercontent.com',
        redirect_uri: `${PUBLIC}/api/v1/auth/google/callback`,
        response_type: 'code',
        code_challenge_method: 'S256',
        scope: 'openid email profile',
      });
      expect(url.searchParams.get('nonce')).toBeTruthy();
      // Facebook has neither a client nor the simulator: no button, no way in, no simulator.
      expect((await real.app.inject({ url: '/api/v1/auth/facebook/start' })).statusCode).toBe(404);
      expect((await real.app.inject({ url: '/dev/oauth/google/authorize' })).statusCode).toBe(404);
    } finally {
      await real.close();
    }
  });

  it('asks for a client id and its secret together, and keeps the simulator off in production unless told', () => {
    expect(() => loadConfig({ FACEBOOK_CLIENT_ID: 'x' })).toThrow(
      'FACEBOOK_CLIENT_ID and FACEBOOK_CLIENT_SECRET must be set together, or neither.',
    );
    const production = {
      NODE_ENV: 'production',
      SMS_PROVIDER: 'ideamart',
      BILLING_PROVIDER: 'ideamart',
      CARRIER_URL: 'http://carrier.test',
      CARRIER_WEBHOOK_SECRET: 'a-long-enough-secret',
    };
    expect(loadConfig(production).oauth.simulator).toBe(false);
    expect(loadConfig({ ...production, OAUTH_SIMULATOR: '1' }).oauth.simulator).toBe(true);
    expect(loadConfig({}).oauth.simulator).toBe(true);
    // A production demo says so at start-up.
    expect(oauthSimulatorWarning(loadConfig(production))).toBeNull();
    expect(oauthSimulatorWarning(loadConfig({ ...production, OAUTH_SIMULATOR: '1' }))).toMatch(
      /^DEMO SIGN-IN: .* plays google and facebook/,
    );
  });

  it('the simulator answers only on this machine', async () => {
    const res = await t.app.inject({
      url: '/dev/oauth/google/authorize',
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(403);
  });
});
