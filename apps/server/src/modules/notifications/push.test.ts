import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { importJWK, jwtVerify } from 'jose';
import { apiPaths } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { loadVapidKeys } from './vapid.ts';
import { isKnownPushService, webPushSender } from './push.ts';
import { notificationsService } from './service.ts';

/** What the local push service received. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let t: TestApp;
let server: http.Server;
let base = '';
const received: Received[] = [];
/** Paths the push service answers 410 Gone for (an unsubscribed browser). */
const gone = new Set<string>();

beforeAll(async () => {
  t = await createTestApp({ JOB_POLL_SECONDS: '1' });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = gone.has(req.url ?? '') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const rows = <T>(query: SQL) => t.rows<T>(query);

/** A browser: a P-256 key pair and an auth secret, as PushManager.subscribe() makes them. */
function browser(path: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: {
      endpoint: `${base}${path}`,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: auth.toString('base64url'),
      },
    },
  };
}

/** RFC 8291 / 8188: what the browser does with an aes128gcm push body. */
function decrypt(b: ReturnType<typeof browser>, body: Buffer): unknown {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const shared = b.ecdh.computeSecret(serverKey);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), b.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, b.auth, info, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const plain = Buffer.concat([
    decipher.update(cipherText.subarray(0, cipherText.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with a 0x02 delimiter and zero padding.
  const end = plain.lastIndexOf(2);
  return JSON.parse(plain.subarray(0, end).toString('utf8'));
}

const subscribe = (token: string | null, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.pushSubscription(),
    headers: token ? bearer(token) : {},
    payload: body as object,
  });

const subscriptionsOf = (userId: number) =>
  rows<{ endpoint: string }>(
    sql`select endpoint from push_subscriptions where user_id = ${userId} order by id`,
  );

const waitFor = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
};

/** Jobs of this name not yet finished. */
const jobsLeft = async (name: string) =>
  Number(
    (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from pgboss.job where name = ${name}
          and state in ('created', 'retry', 'active') and start_after <= now()`,
      )
    )[0]!.n,
  );

const story = (token: string, title: string) => t.createStory(token, { title });
const publish = (token: string, storyId: number, title: string) =>
  t.publishEpisode(token, storyId, title);

describe('Web Push', () => {
  it('gives the VAPID public key to anyone', async () => {
    const res = await t.app.inject({ url: apiPaths.pushKey() });
    expect(res.statusCode).toBe(200);
    const key = res.json().object.publicKey as string;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
  });

  it('checks subscriptions: login, keys that are P-256, an address', async () => {
    const reader = await t.signup();
    const b = browser('/check');
    expect((await subscribe(null, b.subscription)).statusCode).toBe(401);
    let res = await subscribe(reader, {
      ...b.subscription,
      keys: { ...b.subscription.keys, p256dh: 'AAAA' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/p256dh/);
    res = await subscribe(reader, {
      ...b.subscription,
      keys: { ...b.subscription.keys, auth: randomBytes(8).toString('base64url') },
    });
    expect(res.statusCode).toBe(400);
    res = await subscribe(reader, { ...b.subscription, endpoint: 'ftp://example.com/x' });
    expect(res.statusCode).toBe(400);
    res = await subscribe(reader, b.subscription);
    expect(res.json()).toEqual({ code: 0, object: { subscribed: true } });
    // The same browser again: still one row.
    await subscribe(reader, b.subscription);
    expect(await subscriptionsOf(userOf(reader))).toHaveLength(1);
  });

  it('moves an endpoint to whoever subscribed it last; DELETE removes only the caller’s', async () => {
    const first = await t.signup();
    const second = await t.signup();
    const b = browser('/shared');
    await subscribe(first, b.subscription);
    await subscribe(second, b.subscription);
    expect(await subscriptionsOf(userOf(first))).toHaveLength(0);
    expect(await subscriptionsOf(userOf(second))).toHaveLength(1);

    const remove = (token: string) =>
      t.app.inject({
        method: 'DELETE',
        url: apiPaths.pushSubscription(),
        headers: bearer(token),
        payload: { endpoint: b.subscription.endpoint },
      });
    expect((await remove(first)).json().object).toEqual({ subscribed: false });
    expect(await subscriptionsOf(userOf(second))).toHaveLength(1);
    await remove(second);
    expect(await subscriptionsOf(userOf(second))).toHaveLength(0);
  });

  it('pushes a new episode of a bookmarked story, encrypted and signed; 410 forgets', async () => {
    const author = (await t.newAuthor('Push Writer')).token;
    const storyId = await story(author, 'Lantern');
    await publish(author, storyId, 'One');
    // The first episode's job finishes before the reader arrives: they hear of episode 2 only.
    expect(await waitFor(async () => (await jobsLeft('notify.episode')) === 0)).toBe(true);
    const reader = await t.signup();
    await t.database.db.execute(
      sql`insert into bookmarks (user_id, story_id) values (${userOf(reader)}, ${storyId})`,
    );
    const phone = browser('/phone');
    const laptop = browser('/laptop');
    gone.add('/laptop');
    expect((await subscribe(reader, phone.subscription)).statusCode).toBe(200);
    expect((await subscribe(reader, laptop.subscription)).statusCode).toBe(200);
    received.length = 0;

    // The queue runs notify.episode, which starts push.send for the rows it inserted.
    await publish(author, storyId, 'Two');
    expect(await waitFor(() => received.length >= 2)).toBe(true);
    const push = received.find((r) => r.path === '/phone')!;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    expect(push.headers.topic).toBe(`story-${storyId}`);
    expect(decrypt(phone, push.body)).toEqual({
      title: 'NEW EPISODE',
      body: 'Lantern, episode 2: Two',
      url: `/details/${storyId}/2/`,
    });

    // Authorization: vapid t=<JWT signed by the server's key>, k=<that public key>.
    const auth = /^vapid t=([^,]+), k=(\S+)$/.exec(push.headers.authorization ?? '');
    expect(auth).not.toBeNull();
    const publicKey = (await t.app.inject({ url: apiPaths.pushKey() })).json().object.publicKey;
    expect(auth![2]).toBe(publicKey);
    const point = Buffer.from(publicKey, 'base64url');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    };
    const { payload } = await jwtVerify(auth![1]!, await importJWK(jwk, 'ES256'));
    expect(payload.aud).toBe(base);
    expect(payload.sub).toMatch(/^(mailto:|https:)/);

    // The laptop's push service said 410: that subscription is gone, the phone's stays.
    expect(await waitFor(async () => (await subscriptionsOf(userOf(reader))).length === 1)).toBe(
      true,
    );
    expect((await subscriptionsOf(userOf(reader)))[0]!.endpoint).toBe(`${base}/phone`);

    // Nothing is pushed twice: the job ran once and a rerun inserts (and pushes) nothing.
    await new Promise((r) => setTimeout(r, 2500));
    expect(received.filter((r) => r.path === '/phone')).toHaveLength(1);
  });

  it('pushes NEW STORY to followers but not to the author’s own browser', async () => {
    const author = (await t.newAuthor('Push Writer')).token;
    const fan = await t.signup();
    const authorUser = userOf(author);
    const res = await t.app.inject({
      method: 'PUT',
      url: apiPaths.follow(),
      headers: bearer(fan),
      payload: { followed_id: authorUser },
    });
    expect(res.json().object.following).toBe(true);
    const fanPhone = browser('/fan');
    const authorPhone = browser('/author');
    await subscribe(fan, fanPhone.subscription);
    await subscribe(author, authorPhone.subscription);
    received.length = 0;

    const storyId = await story(author, 'Harbour Lights');
    await publish(author, storyId, 'Arrival');
    expect(await waitFor(() => received.some((r) => r.path === '/fan'))).toBe(true);
    const push = received.find((r) => r.path === '/fan')!;
    expect(decrypt(fanPhone, push.body)).toMatchObject({
      title: 'NEW STORY',
      body: expect.stringMatching(/^Harbour Lights by Push Writer/),
      url: `/details/${storyId}/1/`,
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.some((r) => r.path === '/author')).toBe(false);
  });
});

describe('VAPID keys', () => {
  it('are made once in DATA_DIR and kept; env keys win; bad settings stop start-up', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vapid-'));
    try {
      const config = loadConfig({ PUBLIC_URL: 'https://kathamala.example' }).vapid;
      expect(config.subject).toBe('https://kathamala.example');
      const first = await loadVapidKeys(dir, config);
      const again = await loadVapidKeys(dir, config);
      expect(again.publicKey).toBe(first.publicKey);
      expect(again.privateKey).toBe(first.privateKey);
      expect((await stat(path.join(dir, 'keys', 'vapid.json'))).mode & 0o777).toBe(0o600);

      const env = loadConfig({
        VAPID_PUBLIC_KEY: first.publicKey,
        VAPID_PRIVATE_KEY: first.privateKey,
        VAPID_SUBJECT: 'mailto:editors@example.com',
      }).vapid;
      expect(await loadVapidKeys(null, env)).toEqual({ ...first, subject: env.subject });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://example.com' })).toThrow(/VAPID_SUBJECT/);
    await expect(
      loadVapidKeys(null, { publicKey: 'abc', privateKey: 'def', subject: 'mailto:a@b.c' }),
    ).rejects.toThrow(/65 bytes/);
  });
});

describe('in production', () => {
  it("knows the browsers' push services and nothing else", () => {
    expect(isKnownPushService('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(isKnownPushService('https://updates.push.services.mozilla.com/wpush/v2/x')).toBe(true);
    expect(isKnownPushService('https://web.push.apple.com/QGx')).toBe(true);
    expect(isKnownPushService('https://wns2-par02p.notify.windows.com/w/?token=x')).toBe(true);
    expect(isKnownPushService('http://fcm.googleapis.com/fcm/send/abc')).toBe(false);
    expect(isKnownPushService('https://evil.example/fcm.googleapis.com')).toBe(false);
    expect(isKnownPushService('https://fcm.googleapis.com.evil.example/x')).toBe(false);
    expect(isKnownPushService('not a url')).toBe(false);
  });

  it('takes and sends to https push services only', async () => {
    const viewer = { userId: 1, sessionId: 's', name: 'n', author: false };
    const service = notificationsService({
      db: t.database.db,
      queue: t.queue,
      push: { publicKey: 'k', send: async () => 'sent' },
      allowHttpPush: false,
    });
    const b = browser('/plain');
    await expect(service.subscribe(viewer, b.subscription)).rejects.toMatchObject({
      status: 400,
      message: "'endpoint' must be an https address of a browser's push service.",
    });
    const keys = await loadVapidKeys(null, loadConfig({}).vapid);
    received.length = 0;
    const sender = webPushSender(keys, { allowHttp: false });
    const target = { endpoint: b.subscription.endpoint, ...b.subscription.keys };
    expect(await sender.send(target, { title: 'x', body: 'y', url: '/' })).toBe('gone');
    expect(received).toHaveLength(0);
  });
});
