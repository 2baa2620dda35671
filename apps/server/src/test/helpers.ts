import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { decodeJwt } from 'jose';
import type { SQL } from 'drizzle-orm';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { engagementService } from '../modules/engagement/service.ts';
import { storiesRepo } from '../modules/stories/repo.ts';
import { storiesService } from '../modules/stories/service.ts';

export interface TestApp extends BuiltApp {
  close(): Promise<void>;
  /** Signs up a fresh reader and returns their bearer token. */
  signup(name?: string): Promise<string>;
  /** Logs a demo account in and returns its bearer token. */
  login(email: string, password: string): Promise<string>;
  /** Signs a fresh reader up and registers them as an author named `${label} …` (unique). */
  newAuthor(label?: string): Promise<{ token: string; authorId: number; userId: number }>;
  /** Creates a story through the publishing API (an English mystery unless `over` says otherwise). */
  createStory(token: string, over?: Record<string, unknown>): Promise<number>;
  /** Publishes an episode of the story through the publishing API and answers its id. */
  publishEpisode(token: string, storyId: number, title?: string): Promise<number>;
  /** Runs SQL on the test database and answers its rows (for checking what was stored). */
  rows<T>(query: SQL): Promise<T[]>;
}

/** The user id inside a bearer token. */
export const userOf = (token: string): number => Number(decodeJwt(token).sub);

/** A PostgreSQL database of its own for one test file, dropped afterwards. */
export async function freshPostgres(baseUrl: string) {
  const name = `kt_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Builds the real app on a real database: PGlite in memory, or PostgreSQL when DATABASE_URL is set. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const pgBase = process.env.DATABASE_URL;
  const db = pgBase ? await freshPostgres(pgBase) : null;
  const config = loadConfig({
    DEMO_SEED: '1',
    RATE_LIMIT_AUTH_MAX: '1000',
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_UPLOAD_MAX: '100000',
    PUBLIC_URL: 'http://kathamala.test',
    // Many test files share two cores: a busy event loop is the machine, not overload. The
    // pressure tests turn shedding on for themselves.
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    PRESSURE_MAX_IN_FLIGHT: '0',
    ...(db ? { DATABASE_URL: db.url } : {}),
    ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    ...env,
  });
  const built = await buildApp(config, { inMemory: true });
  let n = 0;
  const token = async (url: string, payload: object) => {
    const res = await built.app.inject({ method: 'POST', url, payload });
    if (res.statusCode !== 200) throw new Error(`${url} failed: ${res.statusCode} ${res.body}`);
    return res.json().object.accesstoken as string;
  };
  return {
    ...built,
    close: async () => {
      await built.app.close();
      await db?.drop();
    },
    signup: (name = 'Reader') =>
      token('/api/v1/user/signup', {
        email: `reader${++n}.${randomBytes(3).toString('hex')}@example.com`,
        password: 'correct horse battery',
        username: `${name} ${n}`,
      }),
    login: (email, password) => token('/api/v1/user/login', { email, password }),
    newAuthor: async (label = 'Writer') => {
      const reader = await token('/api/v1/user/signup', {
        email: `author${++n}.${randomBytes(3).toString('hex')}@example.com`,
        password: 'correct horse battery',
        username: `${label} ${n}`,
      });
      const res = await built.app.inject({
        method: 'POST',
        url: '/api/v1/author/register/',
        headers: bearer(reader),
        payload: { name: `${label} ${n} ${randomBytes(3).toString('hex')}` },
      });
      if (res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
      const o = res.json().object as { accesstoken: string; authorId: number };
      return { token: o.accesstoken, authorId: o.authorId, userId: userOf(reader) };
    },
    createStory: async (token, over = {}) => {
      const res = await built.app.inject({
        method: 'POST',
        url: '/api/v1/author/publish/story/webapp',
        headers: bearer(token),
        payload: {
          story: {
            title: `Test story ${++n}`,
            description: 'A test story.',
            language: 'english',
            kind: 0,
            category: 'mystery',
            membersOnly: false,
            ongoing: true,
            ...over,
          },
        },
      });
      if (res.statusCode !== 200) throw new Error(`story failed: ${res.statusCode} ${res.body}`);
      return res.json().object.storyId as number;
    },
    publishEpisode: async (token, storyId, title = 'Part') => {
      const res = await built.app.inject({
        method: 'POST',
        url: '/api/v1/author/publish/episode/webapp',
        headers: bearer(token),
        payload: { episode: { storyId, title, content: '<p>Words.</p>', status: 'published' } },
      });
      if (res.statusCode !== 200) throw new Error(`episode failed: ${res.statusCode} ${res.body}`);
      return res.json().object.episodeId as number;
    },
    rows: async <T>(query: SQL) =>
      ((await built.database.db.execute(query)) as unknown as { rows: T[] }).rows,
  };
}

/**
 * The engagement service on the test app's database, as a job worker runs it (roll-ups); with
 * `queue`, as another process sending through it would.
 */
export const engagementOf = (t: TestApp, queue: TestApp['queue'] = t.queue) => {
  const stories = storiesService(storiesRepo(t.database.db));
  return engagementService({
    db: t.database.db,
    queue,
    reissueToken: async () => '',
    invalidate: () => {},
    story: stories.story,
    subscribed: stories.subscribed,
  });
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Waits, when a run of requests starting now could cross the end of a rate-limit window, until
 * the next window has begun. On PostgreSQL the limits count in fixed windows of the clock's
 * minutes (plugins/rate-limit-store.ts), so a test whose requests crossed a minute's end would
 * see its count start again (CI met it: three uploads allowed where two were). The memory store
 * of PGlite runs starts a window at a key's first request: nothing to wait for there.
 */
export async function clearOfRateWindowEnd(windowMs = 60_000, marginMs = 10_000): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 250));
}

/**
 * Counts turns of the event loop until stopped (a socket is read on each): what ran on separate
 * turns shows as different counts. Stop it, or it keeps the loop spinning.
 */
export function countTurns(): { now(): number; stop(): void } {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return { now: () => turns, stop: () => void (counting = false) };
}
