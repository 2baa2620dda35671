import { createPublicKey } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  base64url,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWK,
} from 'jose';
import { apiPaths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from './helpers.ts';
import type { MemoryMailTransport } from '../modules/mail/transport.ts';

/*
 * Forged tokens (issue 11): every token the server did not sign for a live session is a 401,
 * on a login-only call and on a public one (a presented bad token is never read as a visitor).
 * Written against the HTTP behaviour and the public JWKS only, so it holds however the
 * deployment keeps its signing keys.
 */

let t: TestApp;
/** A real reader's token, and the claims and header inside it. */
let real = '';
let claims: Record<string, unknown>;
let header: Record<string, unknown>;
/** The server's public keys, as /.well-known/jwks.json lists them. */
let jwks: JWK[];

const enc = (value: object) => base64url.encode(JSON.stringify(value));
/** A token made of any header, payload and signature text. */
const assemble = (h: object, p: object, signature = '') => `${enc(h)}.${enc(p)}.${signature}`;

/** The status of a login-only call and a public call with the token. */
async function statuses(token: string) {
  const me = await t.app.inject({ method: 'GET', url: '/api/v1/user/me', headers: bearer(token) });
  const list = await t.app.inject({
    method: 'GET',
    url: '/api/v1/story/listV2/',
    headers: bearer(token),
  });
  for (const res of [me, list].filter((r) => r.statusCode >= 400)) {
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ code: expect.any(Number), message: expect.any(String) });
  }
  return [me.statusCode, list.statusCode];
}

beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
  real = await t.signup('Forgery target');
  claims = decodeJwt(real) as Record<string, unknown>;
  header = decodeProtectedHeader(real) as Record<string, unknown>;
  const res = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  jwks = (res.json() as { keys: JWK[] }).keys;
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('forged tokens', () => {
  it('accepts the real token (the baseline the forgeries are made from)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/me',
      headers: bearer(real),
    });
    expect(res.statusCode).toBe(200);
    expect(jwks.length).toBeGreaterThan(0);
    expect(jwks.map((k) => k.kid)).toContain(header.kid);
  });

  it('refuses alg none, with and without a signature', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      expect(await statuses(assemble({ ...header, alg }, claims))).toEqual([401, 401]);
      expect(await statuses(assemble({ alg }, claims, real.split('.')[2]))).toEqual([401, 401]);
    }
  });

  it('refuses a bad signature and a payload changed under a real signature', async () => {
    const [h, p, s] = real.split('.') as [string, string, string];
    const flipped = s[5] === 'A' ? 'B' : 'A';
    expect(await statuses(`${h}.${p}.${s.slice(0, 5)}${flipped}${s.slice(6)}`)).toEqual([401, 401]);
    expect(await statuses(`${h}.${p}.`)).toEqual([401, 401]);
    expect(await statuses(`${h}.${p}`)).toEqual([401, 401]);
    // Someone else's id, or an author's flag, under the reader's signature.
    const other = await t.signup('Other');
    for (const changed of [
      { ...claims, sub: String(userOf(other)) },
      { ...claims, author: true },
      { ...claims, exp: Number(claims.exp) + 3600 },
    ])
      expect(await statuses(`${h}.${enc(changed)}.${s}`)).toEqual([401, 401]);
  });

  it('refuses HS256 signed with the public key (as the JWK, its x, or PEM)', async () => {
    const publicJwk = jwks.find((k) => k.kid === header.kid)!;
    const pem = createPublicKey({ key: publicJwk as never, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    const der = createPublicKey({ key: publicJwk as never, format: 'jwk' }).export({
      type: 'spki',
      format: 'der',
    });
    const secrets: Uint8Array[] = [
      new TextEncoder().encode(JSON.stringify(publicJwk)),
      new TextEncoder().encode(JSON.stringify({ keys: jwks })),
      new TextEncoder().encode(publicJwk.x!),
      base64url.decode(publicJwk.x!),
      new TextEncoder().encode(pem),
      new Uint8Array(der),
    ];
    for (const secret of secrets)
      for (const alg of ['HS256', 'HS384', 'HS512']) {
        const forged = await new SignJWT(claims)
          .setProtectedHeader({ ...header, alg })
          .sign(secret);
        expect(await statuses(forged)).toEqual([401, 401]);
      }
  });

  it('refuses a token signed by another key, under another key id or the real one', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
    const attackerJwk = await exportJWK(publicKey);
    for (const protectedHeader of [
      { alg: 'EdDSA', kid: 'another-key', typ: 'JWT' },
      { alg: 'EdDSA', kid: String(header.kid), typ: 'JWT' },
      { alg: 'EdDSA', typ: 'JWT' },
      // The key inside the token itself, or a URL to fetch it from.
      { alg: 'EdDSA', typ: 'JWT', jwk: attackerJwk },
      { alg: 'EdDSA', kid: String(header.kid), jku: 'http://attacker.test/jwks.json' },
    ]) {
      const forged = await new SignJWT(claims)
        .setProtectedHeader(protectedHeader as never)
        .sign(privateKey);
      expect(await statuses(forged)).toEqual([401, 401]);
    }
    // The real signature under a key id that is not the server's.
    const [, p, s] = real.split('.');
    expect(await statuses(`${enc({ ...header, kid: 'another-key' })}.${p}.${s}`)).toEqual([
      401, 401,
    ]);
  });

  it('refuses an expired token', async () => {
    const token = await t.signup('Expiring');
    const exp = Number(decodeJwt(token).exp);
    // The server's clock past the token's expiry (jose reads Date); the database's is its own.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((exp + 60) * 1000);
    expect(await statuses(token)).toEqual([401, 401]);
    vi.useRealTimers();
    // The same token before its expiry is fine: the refusal was the expiry.
    expect(await statuses(token)).toEqual([200, 200]);
  });

  it('refuses a token whose session was ended by logout, or removed', async () => {
    const loggedOut = await t.signup('Leaving');
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/logout',
      headers: bearer(loggedOut),
    });
    expect(out.statusCode).toBe(200);
    expect(await statuses(loggedOut)).toEqual([401, 401]);

    // Removed behind the server's back: refused once the deletes' notices are in, as on every
    // instance (on PostgreSQL they arrive on their own connection, a moment later).
    const removed = await t.signup('Removed');
    await t.rows(sql`delete from sessions where id = ${String(decodeJwt(removed).sid)}::uuid`);
    await t.cacheBus.sync();
    expect(await statuses(removed)).toEqual([401, 401]);

    const deleted = await t.signup('Deleted');
    await t.rows(sql`delete from users where id = ${userOf(deleted)}`);
    await t.cacheBus.sync();
    expect(await statuses(deleted)).toEqual([401, 401]);
  });

  it('refuses a mailing-list link token used as a session', async () => {
    const sent = (t.mail as MemoryMailTransport).sent;
    const email = `forged.${Date.now()}@example.com`;
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.mailRequest(),
      payload: { email },
      remoteAddress: '10.9.9.9',
    });
    expect(res.statusCode).toBe(200);
    const until = Date.now() + 20_000;
    while (!sent.some((m) => m.to === email) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    const mail = sent.find((m) => m.to === email)!;
    const token = new URL(
      /http:\/\/kathamala\.test\/mail\/\?\S+/.exec(mail.text)![0],
    ).searchParams.get('token')!;
    // Signed by the server's own key, so only its purpose tells it apart.
    expect(decodeProtectedHeader(token).kid).toBe(header.kid);
    expect(await statuses(token)).toEqual([401, 401]);
  });

  it('refuses tokens that are not JWTs at all', async () => {
    for (const token of [
      'x',
      'a.b.c',
      '...',
      `${real}.extra`,
      real.split('.').reverse().join('.'),
      real.toUpperCase(),
      assemble({ alg: 'EdDSA' }, { sub: '1', sid: '00000000-0000-0000-0000-000000000000' }),
      `${enc({ alg: 'EdDSA', crit: ['b64'], b64: false })}.${real.split('.')[1]}.${real.split('.')[2]}`,
    ])
      expect(await statuses(token)).toEqual([401, 401]);
  });
});
