// What the soak runs share: a real server process (`node --import tsx apps/server/src/main.ts`)
// on a data directory of its own, a fresh PostgreSQL database when DATABASE_URL is set, plain
// HTTP calls, reading the database afterwards to check what was acknowledged, and the entry
// that runs one of them alone (runAlone) the way index.ts runs them all.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stopChild } from '../stop-child.ts';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HOST = '127.0.0.1';
export const PASSWORD = 'correct horse battery';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A whole number from the environment, or the fallback. */
export const envInt = (name: string, fallback: number): number => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v >= 0 ? v : fallback;
};

const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void> | void)[] = [];

/** Runs at exit (normal, error or Ctrl-C): servers are killed, databases dropped, folders removed. */
export const onCleanup = (fn: () => Promise<void> | void) => cleanups.push(fn);

/** Kills every server still running and runs the clean-ups, once. */
export async function cleanup() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  while (cleanups.length) await Promise.resolve(cleanups.pop()!()).catch(() => {});
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`soak: ${signal}, stopping`);
    void cleanup().then(() => process.exit(130));
  });
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** The database the server runs on: PGlite in the data directory, or a fresh PostgreSQL database. */
export interface SoakDatabase {
  env: Record<string, string>;
  kind: 'pglite' | 'postgres';
  /** Runs one query on it while no server holds it (PGlite) or beside the server (PostgreSQL). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

/** A data directory (removed at exit unless SOAK_KEEP=1) and the database the server will use. */
export async function soakDatabase(label: string): Promise<{ dataDir: string; db: SoakDatabase }> {
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(ROOT, '.tmp', `soak-${label}-`));
  if (process.env.SOAK_KEEP !== '1')
    onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const base = process.env.DATABASE_URL;
  if (!base) {
    return {
      dataDir,
      db: {
        env: { DATABASE_URL: '' },
        kind: 'pglite',
        // PGlite is one process's: opened here only while the server is down, and closed after.
        async query<T>(text: string, params: unknown[] = []) {
          const client = await PGlite.create({
            dataDir: path.join(dataDir, 'pglite'),
            extensions: { pg_trgm },
          });
          try {
            return (await client.query<T>(text, params)).rows;
          } finally {
            await client.close();
          }
        },
      },
    };
  }
  const name = `soak_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  onCleanup(async () => {
    await pool.end();
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  return {
    dataDir,
    db: {
      env: { DATABASE_URL: url.toString() },
      kind: 'postgres',
      async query<T>(text: string, params: unknown[] = []) {
        return (await pool.query(text, params)).rows as T[];
      },
    },
  };
}

/**
 * Rate limits raised to 1,000,000 a minute: one address sends all the soak's requests, and at
 * the real limits most of them would be 429.
 */
export const RAISED_LIMITS = {
  RATE_LIMIT_MAX: '1000000',
  RATE_LIMIT_AUTH_MAX: '1000000',
  RATE_LIMIT_UPLOAD_MAX: '1000000',
  RATE_LIMIT_MAIL_MAX: '1000000',
};

export interface Server {
  child: ChildProcess;
  base: string;
  /** Milliseconds from spawn to the first healthy answer. */
  startMs: number;
  log: string;
}

/**
 * Starts the real server on the data directory and waits until /api/health answers 200.
 * Throws (with the log's tail) if it exits or is not healthy within `timeoutMs`.
 */
export async function startServer(opts: {
  port: number;
  dataDir: string;
  env: Record<string, string>;
  log: string;
  timeoutMs?: number;
}): Promise<Server> {
  const log = fs.openSync(opts.log, 'a');
  const base = `http://${HOST}:${opts.port}`;
  const started = Date.now();
  // SOAK_NODE_ARGS: extra flags for the server's node (e.g. "--cpu-prof --cpu-prof-dir=DIR").
  const nodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST,
        PORT: String(opts.port),
        PUBLIC_URL: base,
        DATA_DIR: opts.dataDir,
        // No pages: the soak is about the API and the database.
        WEB_DIST: path.join(opts.dataDir, 'no-web'),
        NODE_ENV: 'production',
        CARRIER_SIMULATOR: '1',
        ...opts.env,
      },
      stdio: ['ignore', log, log],
    },
  );
  fs.closeSync(log);
  children.add(child);
  child.once('exit', () => children.delete(child));
  const until = started + (opts.timeoutMs ?? 180_000);
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return { child, base, startMs: Date.now() - started, log: opts.log };
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  child.kill('SIGKILL');
  await exited(child);
  const tail = fs.readFileSync(opts.log, 'utf8').split('\n').slice(-30).join('\n');
  throw new Error(
    `The server did not start (exit ${child.exitCode ?? child.signalCode}):\n${tail}`,
  );
}

/** Resolves when the process has exited. */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** SIGTERM and wait; answers the exit code (null after a forced kill). */
export const stopServer = (server: Server, graceMs = 30_000): Promise<number | null> =>
  stopChild(server.child, graceMs);

/** kill -9, and wait until it is gone. */
export async function killServer(server: Server) {
  server.child.kill('SIGKILL');
  await exited(server.child);
}

export interface Answer {
  status: number;
  body: { code?: number; object?: Record<string, unknown>; message?: string } | null;
}

/** One API call; a network failure or timeout answers status 0. */
export async function call(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  opts: { token?: string; body?: object; timeoutMs?: number } = {},
): Promise<Answer> {
  try {
    const res = await fetch(base + url, {
      method,
      headers: {
        accept: 'application/json',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body ? JSON.stringify(opts.body) : undefined,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    let body: Answer['body'] = null;
    try {
      body = JSON.parse(text) as Answer['body'];
    } catch {
      body = null;
    }
    return { status: res.status, body };
  } catch {
    return { status: 0, body: null };
  }
}

/** The user id inside a bearer token (its `sub`). */
export const userOf = (token: string): number =>
  Number(
    (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string })
      .sub,
  );

export interface StoryInfo {
  storyId: number;
  parts: number;
  /** Episode id of part 1 (comments need it). */
  episodeId: number;
  membersOnly: boolean;
  title: string;
}

/** The public stories (listV2 pages 1-3) with part 1's episode id, for the clients to use. */
export async function loadStories(base: string): Promise<StoryInfo[]> {
  const seen = new Map<number, StoryInfo>();
  for (const page of [1, 2, 3]) {
    const list = await call(base, 'GET', `/api/v1/story/listV2/?page=${page}`);
    const items = (list.body?.object?.stories ?? []) as {
      storyId: number;
      numberOfparts: number;
      membersOnly: boolean;
      title: string;
    }[];
    for (const s of items) {
      if (seen.has(s.storyId) || s.numberOfparts < 1) continue;
      const preview = await call(base, 'GET', `/api/v1/story/${s.storyId}/preview/`);
      const part = preview.body?.object?.part as { episodeId?: number } | undefined;
      if (!part?.episodeId) continue;
      seen.set(s.storyId, {
        storyId: s.storyId,
        parts: s.numberOfparts,
        episodeId: part.episodeId,
        membersOnly: s.membersOnly,
        title: s.title,
      });
    }
  }
  if (seen.size === 0) throw new Error('No stories to use: is the demo seed on?');
  return [...seen.values()];
}

/** A unique e-mail address for a soak account. */
export const soakEmail = (tag: string) =>
  `soak-${tag}-${randomBytes(5).toString('hex')}@soak.kathamala.test`;

/** Percentile of a list of numbers (ms), or 0 when empty. */
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** What each run (load, crash, fuzz) answers: its figures, with whether they pass. */
export interface Figures {
  ok: boolean;
}

/** True when the module is the script node was started with (`tsx scripts/soak/load.ts`). */
export const isEntry = (moduleUrl: string) =>
  !!process.argv[1] && path.resolve(fileURLToPath(moduleUrl)) === path.resolve(process.argv[1]);

/**
 * One run as its own script (npm run soak:load and the like): runs it, prints its figures,
 * writes them to .tmp/<name>.json, cleans up and exits 0 only when they pass.
 */
export async function runAlone<F extends Figures>(
  name: string,
  run: () => Promise<F>,
  print: (figures: F) => void,
) {
  try {
    const figures = await run();
    print(figures);
    const file = writeFigures(name, figures);
    console.log(`\n${name}: ${figures.ok ? 'PASS' : 'FAIL'} (figures in ${file})`);
    await cleanup();
    process.exit(figures.ok ? 0 : 1);
  } catch (err) {
    console.error(err);
    await cleanup();
    process.exit(1);
  }
}

/** Writes figures to .tmp/<name>.json and answers the path (relative to the repository). */
export function writeFigures(name: string, figures: object) {
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const file = path.join('.tmp', `${name}.json`);
  fs.writeFileSync(path.join(ROOT, file), JSON.stringify(figures, null, 2));
  return file;
}

/**
 * Writes the server acknowledged (a 2xx answer with code 0), each a key written once: a new
 * e-mail, reader:story for a rating (with its value) or a bookmark, a comment's id.
 */
export interface Acked {
  signups: Set<string>;
  ratings: Map<string, number>;
  comments: Set<number>;
  bookmarks: Set<string>;
}

/** An empty record of acknowledged writes. */
export const newAcked = (): Acked => ({
  signups: new Set(),
  ratings: new Map(),
  comments: new Set(),
  bookmarks: new Set(),
});

/** How many writes of each kind were acknowledged. */
export const ackedCounts = (acked: Acked): Record<keyof Acked, number> => ({
  signups: acked.signups.size,
  ratings: acked.ratings.size,
  comments: acked.comments.size,
  bookmarks: acked.bookmarks.size,
});

/** Reads the database (server down, or beside it) and answers the acknowledged writes missing. */
export async function missingWrites(
  db: SoakDatabase,
  acked: Acked,
): Promise<Record<keyof Acked, string[]>> {
  const emails = new Set(
    (await db.query<{ email: string }>('select lower(email) as email from users')).map(
      (u) => u.email,
    ),
  );
  const ratings = new Map(
    (
      await db.query<{ user_id: number; story_id: number; rating: number }>(
        'select user_id, story_id, rating from ratings',
      )
    ).map((r) => [`${r.user_id}:${r.story_id}`, Number(r.rating)]),
  );
  const comments = new Set(
    (await db.query<{ id: number }>('select id from comments')).map((c) => Number(c.id)),
  );
  const bookmarks = new Set(
    (
      await db.query<{ user_id: number; story_id: number }>(
        'select user_id, story_id from bookmarks',
      )
    ).map((b) => `${b.user_id}:${b.story_id}`),
  );
  return {
    signups: [...acked.signups].filter((e) => !emails.has(e)),
    ratings: [...acked.ratings]
      .filter(([k, v]) => Math.abs((ratings.get(k) ?? -1) - v) > 1e-6)
      .map(([k]) => k),
    comments: [...acked.comments].filter((id) => !comments.has(id)).map(String),
    bookmarks: [...acked.bookmarks].filter((k) => !bookmarks.has(k)),
  };
}

/** The total of a figure's parts (writes of every kind). */
export const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

/** "signups 3, ratings 4, ..." for a printed figure. */
export const byKind = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
