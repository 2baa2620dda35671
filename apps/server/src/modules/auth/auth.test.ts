import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { randomBytes, scryptSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { clearOfRateWindowEnd, createTestApp, bearer, type TestApp } from '../../test/helpers.ts';
import { DEMO_PASSWORD } from '../../db/seed/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The password hash stored for an e-mail address. */
const storedHash = async (email: string) =>
  (
    (await t.database.db.execute(
      sql`select password_hash as h from users where lower(email) = lower(${email})`,
    )) as unknown as { rows: { h: string }[] }
  ).rows[0]?.h;

const signupBody = (over: Record<string, unknown> = {}) => ({
  email: `new.${Math.random().toString(36).slice(2)}@example.com`,
  password: 'a long enough password',
  username: `Nimal ${Math.random().toString(36).slice(2, 8)}`,
  ...over,
});

describe('signup and login', () => {
  it('signs a reader up and the token verifies against the published JWKS', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: signupBody({ username: 'Kaveesha' }),
    });
    expect(res.statusCode).toBe(200);
    const token = res.json().object.accesstoken;
    const jwks = (await t.app.inject('/.well-known/jwks.json')).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(jwks.keys[0].d).toBeUndefined();
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'EdDSA', kid: jwks.keys[0].kid });
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks));
    expect(payload).toMatchObject({ name: 'Kaveesha', author: false });
  });

  it('refuses a second account with the same e-mail, whatever its case', async () => {
    const body = signupBody();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/user/signup', payload: body }))
        .statusCode,
    ).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: { ...body, email: body.email.toUpperCase() },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already exists/);
    // The form says it at the E-mail field.
    expect(again.json().field).toBe('email');
  });

  it('lets one of two sign-ups at once have an e-mail or a name, with one session', async () => {
    const signup = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/user/signup', payload: body });
    const body = signupBody();
    // Both pass the check before hashing; the unique index decides between them.
    const sameEmail = await Promise.all([
      signup(body),
      signup({ ...body, username: `${body.username} b` }),
    ]);
    expect(sameEmail.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(sameEmail.find((r) => r.statusCode === 409)!.json().field).toBe('email');
    const name = signupBody().username;
    const sameName = await Promise.all([
      signup(signupBody({ username: name })),
      signup(signupBody({ username: name.toUpperCase() })),
    ]);
    expect(sameName.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(sameName.find((r) => r.statusCode === 409)!.json().field).toBe('username');
    // The winner's token works; the loser left no account and no session behind.
    const token = sameEmail.find((r) => r.statusCode === 200)!.json().object.accesstoken;
    expect(
      (await t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const counted = (await t.database.db.execute(sql`
      select count(distinct u.id)::int as users, count(s.id)::int as sessions
      from users u left join sessions s on s.user_id = u.id
      where lower(u.email) = lower(${body.email})`)) as unknown as {
      rows: { users: number; sessions: number }[];
    };
    expect(counted.rows[0]).toEqual({ users: 1, sessions: 1 });
  });

  it('logs in with a password hashed before argon2id (scrypt) and upgrades the stored hash', async () => {
    const body = signupBody();
    const signed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: body,
    });
    expect(signed.statusCode).toBe(200);
    expect(await storedHash(body.email)).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    // The account as it was stored before: scrypt, N=2^14, r=8, p=1.
    const salt = randomBytes(16);
    const key = scryptSync(body.password.normalize('NFC'), salt, 32, { N: 16384, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    await t.database.db.execute(
      sql`update users set password_hash = ${old} where lower(email) = lower(${body.email})`,
    );
    const login = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { email: body.email, password },
      });
    expect((await login('not the password')).statusCode).toBe(401);
    expect(await storedHash(body.email)).toBe(old);
    const res = await login(body.password);
    expect(res.statusCode, res.body).toBe(200);
    const upgraded = await storedHash(body.email);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    // The new hash logs in, and only with the password.
    expect((await login(body.password)).statusCode).toBe(200);
    expect((await login('not the password')).statusCode).toBe(401);
    expect(await storedHash(body.email)).toBe(upgraded);
  });

  it('gives one message for a wrong password and an unknown e-mail', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { email: 'reader@demo.kathamala.lk', password: 'nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { email: 'nobody@example.com', password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('logs a demo author in with the author flag in the token', async () => {
    const token = await t.login('ashan@demo.kathamala.lk', DEMO_PASSWORD);
    const me = await t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) });
    expect(me.json().object).toMatchObject({ author: true, email: 'ashan@demo.kathamala.lk' });
  });

  it('rejects weak input with a sentence and creates nothing', async () => {
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: signupBody({ password: 'short', email: 'weak@example.com' }),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      code: 1,
      message: "'password' must be at least 8 characters long.",
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { email: 'weak@example.com', password: 'short' },
    });
    expect(login.statusCode).toBe(401);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: signupBody({ isAuthor: true }),
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe("'isAuthor' is not a field this request accepts.");
    const badEmail = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: signupBody({ email: 'not-an-email' }),
    });
    expect(badEmail.json().message).toBe("'email' must be a valid e-mail address.");
  });
});

describe('sessions', () => {
  it('logout revokes the token at once', async () => {
    const token = await t.signup();
    expect(
      (await t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: '/api/v1/user/logout', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const after = await t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe(2);
  });

  it('keeps the session it starts, and still ends it when another instance revokes it', async () => {
    const token = await t.signup();
    const userId = Number(
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub,
    );
    const me = () => t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) });
    // The row changed with the triggers off (no notice): the first request is answered from
    // the session kept at sign-up, as it was written.
    await t.database.db.execute(
      sql.raw(`do $$ begin set local session_replication_role = replica;
        update sessions set expires_at = now() where user_id = ${userId}; end $$`),
    );
    expect((await me()).statusCode).toBe(200);
    // Revoked with its notice, as by another instance: refused at once.
    await t.database.db.execute(
      sql`update sessions set revoked_at = now() where user_id = ${userId}`,
    );
    await t.cacheBus.sync();
    expect((await me()).statusCode).toBe(401);
  });

  it("keeps a session another instance's sign-up announces", async () => {
    const token = await t.signup();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    const me = () => t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) });
    const announce = async (payload: string) => {
      await t.database.db.execute(sql`select pg_notify('kathamala_cache', ${payload})`);
      await t.cacheBus.sync();
    };
    // Expired in the database with no notice, and dropped from memory here: refused.
    await t.database.db.execute(
      sql.raw(`do $$ begin set local session_replication_role = replica;
        update sessions set expires_at = now() where id = '${claims.sid}'; end $$`),
    );
    await announce(`session:${claims.sid}`);
    expect((await me()).statusCode).toBe(401);
    // A sign-up's notice carries its session: the next request is answered from it.
    await announce(`joined:${claims.sub}:${claims.sid}:${Date.now() + 3_600_000}:${claims.name}`);
    expect((await me()).statusCode).toBe(200);
  });

  it('refresh gives a working token for the same session; logout ends both', async () => {
    const token = await t.signup();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/refresh/token/',
      headers: bearer(token),
      payload: { deviceId: 'web' },
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().object.accesstoken;
    expect(
      (await t.app.inject({ url: '/api/v1/user/me', headers: bearer(fresh) })).statusCode,
    ).toBe(200);
    await t.app.inject({ url: '/api/v1/user/logout', headers: bearer(fresh) });
    expect(
      (await t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) })).statusCode,
    ).toBe(401);
  });

  it('refuses a refresh for another device id', async () => {
    const token = await t.signup();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/refresh/token/',
      headers: bearer(token),
      payload: { deviceId: 'android' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a token signed by someone else, and garbage', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const kid = (await t.app.inject('/.well-known/jwks.json')).json().keys[0].kid;
    const forged = await new SignJWT({
      sid: '00000000-0000-0000-0000-000000000000',
      name: 'x',
      author: true,
    })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setSubject('1')
      .setExpirationTime('1h')
      .sign(privateKey);
    void exportJWK(publicKey);
    for (const token of [forged, 'garbage', '']) {
      const res = await t.app.inject({
        url: '/api/v1/user/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('changes the username, trimmed and NFC, and the next token carries it', async () => {
    const token = await t.signup();
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/change-username',
      headers: bearer(token),
      payload: { username: '  ශ්‍රී  ලාල්  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().object.username).toBe('ශ්‍රී ලාල්');
    const other = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/change-username',
      payload: { username: 'Nobody' },
    });
    expect(other.statusCode).toBe(401);
    const bidi = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/change-username',
      headers: bearer(token),
      payload: { username: 'abc\u202Edef' },
    });
    expect(bidi.statusCode).toBe(400);
  });
});

describe('usernames are unique as readers see them', () => {
  const change = (token: string, username: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/change-username',
      headers: bearer(token),
      payload: { username },
    });

  it('refuses a taken username on sign-up and on change, case and joiners aside', async () => {
    const first = await t.signup();
    expect((await change(first, 'ශ්‍රී Kavi')).statusCode).toBe(200);

    const second = await t.signup();
    for (const name of ['ශ්‍රී Kavi', 'ශ්රී KAVI']) {
      const res = await change(second, name);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        code: 5,
        message: 'That username is taken. Please choose another.',
      });
    }
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: signupBody({ username: 'ශ්‍රී kavi' }),
    });
    expect(signup.statusCode).toBe(409);
    // The sign-up form says it at the Username field (and moves the focus there).
    expect(signup.json()).toEqual({
      code: 5,
      message: 'That username is taken. Please choose another.',
      field: 'username',
    });

    // Keeping one's own name (in another case) is not "taken".
    expect((await change(first, 'ශ්‍රී KAVI')).statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('slows down repeated login attempts with a 429 and a message', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AUTH_MAX: '3', DEMO_SEED: '0' });
    try {
      await clearOfRateWindowEnd();
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/v1/user/login',
          payload: { email: 'a@example.com', password: 'whatever1' },
        });
        codes.push(res.statusCode);
        if (res.statusCode === 429)
          expect(res.json()).toMatchObject({
            code: 6,
            message: expect.stringMatching(/Too many requests/),
          });
      }
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('never counts the files a page needs against the limit', async () => {
    const limited = await createTestApp({ RATE_LIMIT_MAX: '3', DEMO_SEED: '0' });
    try {
      await clearOfRateWindowEnd();
      for (let i = 0; i < 6; i++) {
        const res = await limited.app.inject('/images/story_cover_1.png');
        expect(res.statusCode).toBe(404);
      }
      const api = [];
      for (let i = 0; i < 4; i++)
        api.push((await limited.app.inject('/api/v1/story/list/trending/')).statusCode);
      expect(api).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
