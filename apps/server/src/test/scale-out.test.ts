// Two instances on one PostgreSQL behave as one site: keys, secrets, sessions, rate limits and
// uploaded files are shared (issue 11, Scale-out). Needs PostgreSQL: skipped without DATABASE_URL
// (npm test and CI set it through scripts/with-postgres.sh).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { loadTokenKeys } from '../auth/keys.ts';
import { clearOfRateWindowEnd, bearer, freshPostgres } from './helpers.ts';

const PG = process.env.DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const BUCKET = 'kathamala-scale-out';

interface S3rver {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rverCtor = createRequire(import.meta.url)('s3rver') as new (o: object) => S3rver;

const rows = async <T>(b: BuiltApp, q: ReturnType<typeof sql>) =>
  ((await b.database.db.execute(q)) as unknown as { rows: T[] }).rows;

/** A multipart body as a browser sends it. */
const form = async (bytes: Buffer) => {
  const data = new FormData();
  data.append('image', new Blob([bytes], { type: 'image/png' }), 'cover.png');
  const res = new Response(data);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
};

describe.skipIf(!PG)(
  PG
    ? 'two instances on one PostgreSQL'
    : 'two instances on one PostgreSQL: skipped, DATABASE_URL is not set (scripts/with-postgres.sh sets it)',
  () => {
    let db: Awaited<ReturnType<typeof freshPostgres>>;
    let s3: S3rver;
    let a: BuiltApp;
    let b: BuiltApp;
    const dirs: string[] = [];
    const fileKids: string[] = [];

    beforeAll(async () => {
      db = await freshPostgres(PG!);
      const s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-s3-'));
      dirs.push(s3dir);
      s3 = new S3rverCtor({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: s3dir,
        configureBuckets: [{ name: BUCKET }],
      });
      const { port } = await s3.run();
      // Each instance has its own DATA_DIR holding the key file an older version made there:
      // both are imported, so tokens either instance issued before stay valid.
      for (let i = 0; i < 2; i++) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-inst-'));
        dirs.push(dir);
        fileKids.push((await loadTokenKeys(dir)).kid);
      }
      const env = (dataDir: string) =>
        loadConfig({
          DATABASE_URL: db.url,
          DATA_DIR: dataDir,
          DEMO_SEED: '1',
          PUBLIC_URL: 'http://kathamala.test',
          RATE_LIMIT_MAX: '100000',
          RATE_LIMIT_AUTH_MAX: '10',
          RATE_LIMIT_UPLOAD_MAX: '1000',
          KEY_ENCRYPTION_SECRET: 'scale-out test secret, not for real',
          S3_ENDPOINT: `http://127.0.0.1:${port}`,
          S3_BUCKET: BUCKET,
          S3_REGION: 'us-east-1',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: '1',
          // Load shedding is another test's subject: a busy test machine must not trip it here.
          PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
          PRESSURE_MAX_HEAP_MB: '0',
          PRESSURE_MAX_IN_FLIGHT: '0',
        });
      // Started together, as a compose file starts them.
      [a, b] = await Promise.all([buildApp(env(dirs[1]!)), buildApp(env(dirs[2]!))]);
    }, 180_000);

    afterAll(async () => {
      await a?.app.close();
      await b?.app.close();
      await s3?.close();
      await db?.drop();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    });

    const login = async (app: BuiltApp, email = 'reader@demo.kathamala.lk') => {
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { email, password: 'kathamala-demo' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().object.accesstoken as string;
    };
    const me = (app: BuiltApp, token: string) =>
      app.app.inject({ url: '/api/v1/user/me', headers: bearer(token) });
    const jwks = async (app: BuiltApp) =>
      ((await app.app.inject('/.well-known/jwks.json')).json().keys as { kid: string }[])
        .map((k) => k.kid)
        .sort();

    it('runs the seed once', async () => {
      const [seen] = await rows<{ n: number; titles: number; readers: number }>(
        a,
        sql`select count(*)::int as n, count(distinct title)::int as titles,
            (select count(*)::int from users where email = 'reader@demo.kathamala.lk') as readers
          from stories`,
      );
      expect(seen!.n).toBeGreaterThan(0);
      expect(seen!.titles).toBe(seen!.n);
      expect(seen!.readers).toBe(1);
    });

    it('shares the keys: one signing key, both key files imported, the same JWKS on both', async () => {
      const stored = await rows<{ kid: string; private_jwk: string; retire_after: string | null }>(
        a,
        sql`select kid, private_jwk, retire_after from signing_keys`,
      );
      expect(stored.map((k) => k.kid).sort()).toEqual([...fileKids].sort());
      expect(stored.filter((k) => k.retire_after === null)).toHaveLength(1);
      for (const k of stored) expect(k.private_jwk.startsWith('enc:v1:')).toBe(true);
      expect(await jwks(a)).toEqual([...fileKids].sort());
      expect(await jwks(b)).toEqual(await jwks(a));
      expect(a.keys.kid).toBe(b.keys.kid);
    });

    it('shares the carrier webhook secret, the VAPID keys and the audio capability key', async () => {
      expect(a.carrier.webhookSecret).toBe(b.carrier.webhookSecret);
      const vapid = async (app: BuiltApp) => {
        const res = await app.app.inject('/api/v1/push/key');
        expect(res.statusCode, res.body).toBe(200);
        return res.body;
      };
      expect(await vapid(b)).toBe(await vapid(a));
      const secrets = await rows<{ name: string; value: string }>(
        a,
        sql`select name, value from deployment_secrets order by name`,
      );
      expect(secrets.map((s) => s.name)).toEqual([
        'audio-capability-key',
        'carrier.webhook',
        'vapid',
      ]);
      for (const s of secrets) expect(s.value.startsWith('enc:v1:')).toBe(true);
    });

    it('takes a token from one on the other, and refuses it on both at once after a logout', async () => {
      const token = await login(a);
      expect((await me(b, token)).statusCode).toBe(200);
      expect((await me(a, token)).statusCode).toBe(200);
      const out = await b.app.inject({ url: '/api/v1/user/logout', headers: bearer(token) });
      expect(out.statusCode, out.body).toBe(200);
      // A hears of the logout on its own LISTEN connection, signalled at the same commit; its
      // backend may deliver it a moment after B's, so wait until A has heard every notice
      // committed so far (one round trip) rather than for one turn of the shared event loop.
      await a.cacheBus.sync();
      expect((await me(a, token)).statusCode).toBe(401);
      expect((await me(b, token)).statusCode).toBe(401);
    });

    it('counts a rate limit across both instances', async () => {
      await clearOfRateWindowEnd();
      // RATE_LIMIT_AUTH_MAX is 10 for both: 6 attempts through each from one address.
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await (i % 2 ? b : a).app.inject({
          method: 'POST',
          url: '/api/v1/user/login',
          remoteAddress: '203.0.113.7',
          payload: { email: 'nobody@example.com', password: 'wrong password' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      // Another address has its own budget.
      const other = await b.app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        remoteAddress: '203.0.113.8',
        payload: { email: 'nobody@example.com', password: 'wrong password' },
      });
      expect(other.statusCode).not.toBe(429);
    });

    it('serves a cover uploaded through one from the other', async () => {
      const author = await login(a, 'ashan@demo.kathamala.lk');
      const list = await a.app.inject({
        url: '/api/v1/author/story/list/webapp',
        headers: bearer(author),
      });
      const storyId = list.json().object.stories[0].storyId as number;
      const png = await sharp({
        create: { width: 800, height: 1200, channels: 3, background: { r: 200, g: 40, b: 90 } },
      })
        .png()
        .toBuffer();
      const body = await form(png);
      const up = await a.app.inject({
        method: 'POST',
        url: `/api/v1/upload-story-cover/upload/${storyId}`,
        payload: body.payload,
        headers: { ...body.headers, ...bearer(author) },
      });
      expect(up.statusCode, up.body).toBe(200);
      const fromA = await a.app.inject(`/images/story_cover_${storyId}.png`);
      const fromB = await b.app.inject(`/images/story_cover_${storyId}.png`);
      expect(fromB.statusCode).toBe(200);
      expect(fromB.rawPayload.equals(fromA.rawPayload)).toBe(true);
      const meta = await sharp(fromB.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([600, 900]);
      expect(await a.storage.has(`covers/story_cover_${storyId}.png`)).toBe(true);
      expect((await b.app.inject('/images/story_cover_999999.png')).statusCode).toBe(404);
    });

    it('after a rotation (npm run keys:rotate) old and new tokens both work on both', async () => {
      const before = await login(b);
      const oldKid = decodeProtectedHeader(before).kid;
      const run = await promisify(execFile)(
        'node',
        ['--import', 'tsx', 'apps/server/src/keys-rotate.ts', '--now'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            DATABASE_URL: db.url,
            KEY_ENCRYPTION_SECRET: 'scale-out test secret, not for real',
          },
        },
      );
      expect(run.stdout).toMatch(/New signing key/);
      // A reads the keys now (in production: within a minute); B has not yet.
      await a.keys.reload();
      const after = await login(a);
      const newKid = decodeProtectedHeader(after).kid;
      expect(newKid).not.toBe(oldKid);
      expect(b.keys.kid).toBe(oldKid);
      // B meets an unknown kid, reads the keys once, and takes the token.
      for (const app of [a, b])
        for (const token of [before, after]) expect((await me(app, token)).statusCode).toBe(200);
      expect(await jwks(b)).toEqual(await jwks(a));
      expect(await jwks(a)).toContain(newKid);
      expect(await jwks(a)).toContain(oldKid);
      await b.keys.reload();
      expect(b.keys.kid).toBe(newKid);
      const [old] = await rows<{ retire_after: string | null }>(
        a,
        sql`select retire_after from signing_keys where kid = ${oldKid!}`,
      );
      expect(old!.retire_after).not.toBeNull();
    }, 60_000);

    it('refuses a token with a forged kid without asking the database each time', async () => {
      const token = await login(a);
      const [h, p, s] = token.split('.');
      const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
      const forged = [
        Buffer.from(JSON.stringify({ ...header, kid: 'forged-kid' })).toString('base64url'),
        p,
        s,
      ].join('.');
      const started = Date.now();
      for (let i = 0; i < 20; i++) expect((await me(b, forged)).statusCode).toBe(401);
      // One reload at most (then 30 s of "unknown"): twenty refusals stay fast.
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  },
);
