import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';

export interface TestApp extends BuiltApp {
  close(): Promise<void>;
  /** Signs up a fresh reader and returns their bearer token. */
  signup(name?: string): Promise<string>;
  /** Logs a demo account in and returns its bearer token. */
  login(email: string, password: string): Promise<string>;
}

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
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
