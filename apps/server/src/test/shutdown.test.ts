import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createTestApp } from './helpers.ts';

/*
 * SIGTERM drains: the real server process (main.ts) stops accepting connections, answers the
 * requests already in flight in full, lets running jobs finish, closes the database and exits
 * 0; past SHUTDOWN_TIMEOUT_SECONDS it exits anyway. PGlite in a data directory (the drained
 * write is read back from it); DATABASE_URL is ignored here, the drain does not depend on it.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const HOST = '127.0.0.1';
const children = new Set<ChildProcess>();
const dirs: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', (code) => resolve(code)),
  );

/** Starts `node --import tsx apps/server/src/main.ts` on its own data directory. */
async function startServer(port: number, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-shutdown-'));
  dirs.push(dataDir);
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      HOST,
      PORT: String(port),
      PUBLIC_URL: `http://${HOST}:${port}`,
      DEMO_SEED: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  children.add(child);
  child.once('exit', () => children.delete(child));
  const until = Date.now() + 150_000;
  while (Date.now() < until && child.exitCode === null) {
    try {
      if ((await fetch(`http://${HOST}:${port}/api/health`)).status === 200)
        return { child, dataDir, logFile };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`The server did not start:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
}

/** A signup whose body arrives in two parts: in flight from the first part until `finish()`. */
function slowSignup(port: number, email: string) {
  const body = JSON.stringify({ email, password: 'correct horse battery', username: 'Slow Sam' });
  let finish = () => {};
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: '/api/v1/user/signup',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 20));
    finish = () => req.end(body.slice(20));
  });
  answer.catch(() => {});
  return { answer, finish: () => finish() };
}

describe('SIGTERM', () => {
  it('answers a request in flight in full, refuses new connections, and exits 0', async () => {
    const port = 4423;
    const { child, dataDir } = await startServer(port);
    const email = 'slow-sam@example.com';
    const slow = slowSignup(port, email);
    await sleep(300);
    const code = exited(child);
    child.kill('SIGTERM');
    await sleep(700);
    // Not listening any more: a proxy sends new requests to another instance.
    await expect(fetch(`http://${HOST}:${port}/api/health`)).rejects.toThrow();
    expect(child.exitCode).toBeNull();
    slow.finish();
    const res = await slow.answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ code: 0 });
    expect(await code).toBe(0);
    // The answered write is in the database the server closed.
    const db = await PGlite.create({
      dataDir: path.join(dataDir, 'pglite'),
      extensions: { pg_trgm },
    });
    const { rows } = await db.query('select email from users where email = $1', [email]);
    await db.close();
    expect(rows).toHaveLength(1);
  }, 200_000);

  it('exits anyway when the drain outlasts SHUTDOWN_TIMEOUT_SECONDS (never hangs)', async () => {
    const port = 4424;
    const { child } = await startServer(port, { SHUTDOWN_TIMEOUT_SECONDS: '2' });
    const stuck = slowSignup(port, 'stuck@example.com');
    await sleep(300);
    const code = exited(child);
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await code).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    await stuck.answer.catch(() => {});
  }, 200_000);
});

describe('closing the app (what SIGTERM does) with a job running', () => {
  it('lets the job finish and records it completed before the database closes', async () => {
    const t = await createTestApp({ DEMO_SEED: '0' });
    let started = false;
    let finished = false;
    await t.database.db.execute(sql`create table drain_test (n int primary key)`);
    await t.queue.work<{ n: number }>('drain-test', async (job) => {
      started = true;
      await sleep(1500);
      // Idempotent, in one statement: a retried job cannot apply it twice.
      await t.database.db.execute(
        sql`insert into drain_test (n) values (${job.data.n}) on conflict do nothing`,
      );
      finished = true;
    });
    // What the job and its row look like as the database is about to close.
    let atClose: { state: string; rows: number } | null = null;
    const closeDatabase = t.database.close;
    t.database.close = async () => {
      const [job] = await t.rows<{ state: string }>(
        sql`select state from pgboss.job where name = 'drain-test'`,
      );
      const [count] = await t.rows<{ n: number }>(sql`select count(*)::int as n from drain_test`);
      atClose = { state: job?.state ?? 'none', rows: count?.n ?? -1 };
      await closeDatabase();
    };
    await t.queue.send('drain-test', { n: 1 });
    const until = Date.now() + 20_000;
    while (!started && Date.now() < until) await sleep(50);
    expect(started).toBe(true);
    expect(finished).toBe(false);
    await t.close();
    expect(finished).toBe(true);
    expect(atClose).toEqual({ state: 'completed', rows: 1 });
  }, 60_000);
});
