// WORKERS=N: main.ts as a node:cluster primary with N workers on one port (cluster.ts). The
// configuration part runs everywhere; the cluster itself needs PostgreSQL (PGlite is one
// process) and is skipped without DATABASE_URL (npm test and CI set it, scripts/with-postgres.sh).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { freshPostgres } from './test/helpers.ts';

const PG = process.env.DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../../..');
const HOST = '127.0.0.1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const children = new Set<ChildProcess>();
const dirs: string[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

/** Starts `node --import tsx apps/server/src/main.ts`; its output is collected in `log()`. */
function startMain(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-cluster-'));
  dirs.push(dataDir);
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST,
      DEMO_SEED: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  children.add(child);
  child.once('exit', () => children.delete(child));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { child, exited, log: () => out };
}

async function waitFor(what: string, test: () => boolean, ms: number, log: () => string) {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; output:\n${log()}`);
    await sleep(100);
  }
}

/** One request on a connection of its own, so the primary hands each to a worker afresh. */
function request(
  port: number,
  method: string,
  urlPath: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; json: { code: number; object?: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = http.request(
      {
        host: HOST,
        port,
        method,
        path: urlPath,
        agent: false,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('WORKERS', () => {
  it('is 1 unless set, and a whole number from 1', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://localhost/k' }).workers).toBe(4);
    for (const bad of ['0', '-1', '1.5', 'two', '1000'])
      expect(() => loadConfig({ WORKERS: bad, DATABASE_URL: 'postgres://localhost/k' })).toThrow(
        /WORKERS must be a whole number from 1 to 256/,
      );
  });

  it('above 1 refuses PGlite with a sentence that says why', () => {
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      /WORKERS=2 needs PostgreSQL \(DATABASE_URL\).*PGlite.*one process/,
    );
  });

  it('main.ts stops with that sentence and status 2', async () => {
    const main = startMain({ WORKERS: '2', DATABASE_URL: '', PORT: '0' });
    expect(await main.exited).toBe(2);
    expect(main.log()).toContain('Configuration error: WORKERS=2 needs PostgreSQL');
  }, 60_000);
});

describe.skipIf(!PG)(
  PG
    ? 'WORKERS=2 on PostgreSQL'
    : 'WORKERS=2 on PostgreSQL: skipped, DATABASE_URL is not set (scripts/with-postgres.sh sets it)',
  () => {
    let db: Awaited<ReturnType<typeof freshPostgres>>;
    let port: number;
    let main: ReturnType<typeof startMain>;
    const listeningPids = () =>
      [...main.log().matchAll(/Worker (\d+) listening/g)].map((m) => Number(m[1]));

    beforeAll(async () => {
      db = await freshPostgres(PG!);
      port = await freePort();
      main = startMain({
        WORKERS: '2',
        DATABASE_URL: db.url,
        PORT: String(port),
        PUBLIC_URL: `http://${HOST}:${port}`,
        RATE_LIMIT_MAX: '100000',
        RATE_LIMIT_AUTH_MAX: '1000',
        SHUTDOWN_TIMEOUT_SECONDS: '10',
      });
      await waitFor(
        'two workers listening',
        () => main.log().includes('2 workers listening'),
        120_000,
        main.log,
      );
    }, 150_000);

    afterAll(async () => {
      main?.child.kill('SIGKILL');
      await db?.drop();
    });

    it('the primary says two workers listen, and 40 requests on fresh connections all succeed', async () => {
      expect(new Set(listeningPids()).size).toBe(2);
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => request(port, 'GET', '/api/health')),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    });

    it('a token one worker issued works on every request, and logging out ends it everywhere', async () => {
      const signup = await request(port, 'POST', '/api/v1/user/signup', {
        body: {
          email: `cluster.${Date.now()}@example.com`,
          password: 'correct horse battery',
          username: 'Cluster Reader',
        },
      });
      expect(signup.status).toBe(200);
      const token = String(signup.json.object?.accesstoken);
      for (let i = 0; i < 20; i++) {
        const me = await request(port, 'GET', '/api/v1/user/me', { token });
        expect(me.status).toBe(200);
      }
      expect((await request(port, 'GET', '/api/v1/user/logout', { token })).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        const me = await request(port, 'GET', '/api/v1/user/me', { token });
        expect(me.status).toBe(401);
      }
    });

    it('a worker that dies is replaced', async () => {
      const [victim] = listeningPids();
      process.kill(victim!, 'SIGKILL');
      await waitFor(
        'a third worker listening',
        () => listeningPids().length >= 3,
        60_000,
        main.log,
      );
      expect(main.log()).toMatch(new RegExp(`Worker ${victim} died \\(signal SIGKILL\\)`));
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => request(port, 'GET', '/api/health')),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }, 90_000);

    it('SIGTERM drains the workers and the primary exits 0', async () => {
      const started = Date.now();
      main.child.kill('SIGTERM');
      const code = await Promise.race([main.exited, sleep(30_000).then(() => 'timeout')]);
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(main.log()).toContain('All workers have exited: the primary exits 0');
      // Only the worker killed above was replaced: none is restarted during the drain.
      expect(main.log().match(/starting another/g)).toHaveLength(1);
    }, 40_000);
  },
);
