import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** A key the "server" signs with, and its public half as the JWKS lists it. */
const key = async (kid: string) => {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const sign = () =>
    new SignJWT({ sub: '1', sid: 's' })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  return { jwk, sign };
};

describe('checking a token in the browser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('fetches the key set again once when the server has rotated to a key the tab has not seen', async () => {
    const old = await key('old');
    const rotated = await key('new');
    let served: JWK[] = [old.jwk];
    const fetched: (RequestCache | undefined)[] = [];
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
      fetched.push(init?.cache);
      return new Response(JSON.stringify({ keys: served }), { status: 200 });
    });
    const { verifyToken } = await import('./verify.ts');

    expect((await verifyToken(await old.sign())).kind).toBe('valid');
    // The server starts signing with a new key; the tab still holds the old set.
    served = [old.jwk, rotated.jwk];
    expect((await verifyToken(await rotated.sign())).kind).toBe('valid');
    expect(fetched).toEqual([undefined, 'no-cache']);
    // Both keep working without another fetch.
    expect((await verifyToken(await old.sign())).kind).toBe('valid');
    expect(fetched).toHaveLength(2);
  });

  it('still refuses a token signed by a key the server does not list', async () => {
    const real = await key('real');
    const forged = await key('forged');
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls++;
      return new Response(JSON.stringify({ keys: [real.jwk] }), { status: 200 });
    });
    const { verifyToken } = await import('./verify.ts');
    expect((await verifyToken(await forged.sign())).kind).toBe('invalid');
    // One fresh look, not a loop.
    expect(calls).toBe(2);
  });
});
