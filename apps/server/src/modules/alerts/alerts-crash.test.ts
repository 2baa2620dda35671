import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { bearer, freshPostgres } from '../../test/helpers.ts';

/*
 * The crash test: 1,000 alert subscribers, the server killed (SIGKILL) in the middle of
 * sending and started again; the carrier's outbox file then holds exactly one SMS per
 * subscriber. A real server process on a real data directory (PGlite), or on its own
 * PostgreSQL database when DATABASE_URL is set.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const FANS = 1000;
const PASSWORD = 'correct horse battery';
const EMAIL = 'crash-author@example.com';

let dataDir: string;
let pg: Awaited<ReturnType<typeof freshPostgres>> | null = null;
let env: Record<string, string>;
const children = new Set<ChildProcess>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

const mobileOf = (i: number) => `9477${String(i).padStart(7, '0')}`;

/** The alert SMS of the story's episode 1 in the outbox file, by mobile. */
function alertLines(storyId: number): Map<string, number> {
  const file = path.join(dataDir, 'sms-outbox.jsonl');
  const counts = new Map<string, number>();
  if (!fs.existsSync(file)) return counts;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let m: { to: string; text: string; ref?: string };
    try {
      m = JSON.parse(line);
    } catch {
      continue; // a line cut by the kill would show here; appendFileSync writes whole lines
    }
    if (m.ref?.startsWith('alert:') && m.text.endsWith(`/details/${storyId}/1/`))
      counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
  }
  return counts;
}

/** Starts `node --import tsx apps/server/src/main.ts` on the data directory; answers once it serves. */
async function startServer(logName: string) {
  const port = await freePort();
  const log = fs.openSync(path.join(dataDir, logName), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', log, log],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) return { child, base };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  const tail = fs.readFileSync(path.join(dataDir, logName), 'utf8').split('\n').slice(-30);
  throw new Error(`The server did not start:\n${tail.join('\n')}`);
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-alerts-crash-'));
  if (process.env.DATABASE_URL) pg = await freshPostgres(process.env.DATABASE_URL);
  env = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    DEMO_SEED: '0',
    JOB_POLL_SECONDS: '1',
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '1000',
    // Slow enough to be stopped in the middle of 1,000 SMS.
    CARRIER_SIMULATOR_DELAY_MS: '10',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(pg ? { DATABASE_URL: pg.url } : { DATABASE_URL: '' }),
  };
}, 120_000);

afterAll(async () => {
  for (const child of children) {
    child.kill('SIGKILL');
    await exited(child);
  }
  await pg?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

it('1,000 alert subscribers, the server killed midway and restarted: one SMS each', async () => {
  // 1. The data: an author and a story through the app, 1,000 subscribed fans by SQL.
  const prep = await buildApp(loadConfig({ ...process.env, ...env }));
  const call = async (url: string, payload: object, token?: string) => {
    const res = await prep.app.inject({
      method: 'POST',
      url,
      payload,
      headers: token ? bearer(token) : {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().object;
  };
  const reader = await call('/api/v1/user/signup', {
    email: EMAIL,
    password: PASSWORD,
    username: 'Crash Author',
  });
  const author = await call(
    '/api/v1/author/register/',
    { name: 'Crash Test Author' },
    reader.accesstoken,
  );
  const { storyId } = await call(
    '/api/v1/author/publish/story/webapp',
    {
      story: {
        title: 'A Thousand Lanterns',
        description: 'Many readers wait.',
        language: 'english',
        kind: 0,
        category: 'mystery',
        membersOnly: false,
        ongoing: true,
      },
    },
    author.accesstoken,
  );
  await prep.database.db.execute(sql`
    with fans as (
      insert into users (email, password_hash, username)
      select 'fan' || g || '@crash.example', 'not-a-hash', 'Crash fan ' || g
      from generate_series(1, ${FANS}::int) g returning id, split_part(username, ' ', 3)::int as n),
    subs as (
      insert into subscriptions (user_id, app_id, mobile, status)
      select id, ${PRODUCT_APP_ID}, '9477' || lpad(n::text, 7, '0'), 'active' from fans)
    insert into story_alerts (user_id, story_id) select id, ${storyId} from fans`);
  await prep.app.close();

  // 2. A real server publishes the story's first episode; its fan-out starts.
  const first = await startServer('server-1.log');
  const login = (await (
    await fetch(`${first.base}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    })
  ).json()) as { object: { accesstoken: string } };
  const published = await fetch(`${first.base}/api/v1/author/publish/episode/webapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(login.object.accesstoken) },
    body: JSON.stringify({
      episode: { storyId, title: 'The First Light', content: '<p>Words.</p>', status: 'published' },
    }),
  });
  expect(published.status).toBe(200);

  // 3. Killed without warning once some hundreds are out.
  const until = Date.now() + 120_000;
  while (alertLines(storyId).size < 300) {
    if (Date.now() > until) throw new Error(`Only ${alertLines(storyId).size} alerts went out`);
    await sleep(20);
  }
  first.child.kill('SIGKILL');
  await exited(first.child);
  const atKill = alertLines(storyId).size;
  expect(atKill).toBeGreaterThanOrEqual(300);
  expect(atKill).toBeLessThan(FANS);

  // 4. Started again: the fan-out goes on where it stopped.
  const second = await startServer('server-2.log');
  const done = Date.now() + 180_000;
  while (alertLines(storyId).size < FANS) {
    if (Date.now() > done)
      throw new Error(`Only ${alertLines(storyId).size} of ${FANS} alerts after the restart`);
    await sleep(200);
  }
  // Time for a stray duplicate to show, were there one.
  await sleep(3000);
  second.child.kill('SIGTERM');
  await exited(second.child);

  // 5. Every subscriber exactly once in the outbox file, and every delivery marked sent.
  const counts = alertLines(storyId);
  expect(counts.size).toBe(FANS);
  const twice = [...counts].filter(([, n]) => n !== 1);
  expect(twice).toEqual([]);
  for (let i = 1; i <= FANS; i++) expect(counts.get(mobileOf(i))).toBe(1);
  const database = await openDatabase({
    databaseUrl: pg?.url ?? null,
    pgliteDir: pg ? null : path.join(dataDir, 'pglite'),
  });
  try {
    const { rows } = (await database.db.execute(sql`
      select status, count(*)::int as n from alert_deliveries group by status`)) as unknown as {
      rows: { status: string; n: number }[];
    };
    expect(rows).toEqual([{ status: 'sent', n: FANS }]);
  } finally {
    await database.close();
  }
}, 420_000);
