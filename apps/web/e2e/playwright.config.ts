import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
// Helpers running journeys side by side pick their own port and build (E2E_PORT, WEB_DIST).
const PORT = Number(process.env.E2E_PORT ?? 3107);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
// The server's data directory, in the environment so the journeys (run in worker processes,
// which load this file again and inherit the variable) read the same files: the SMS outbox.
export const DATA_DIR = (process.env.E2E_DATA_DIR ??= mkdtempSync(
  path.join(tmpdir(), 'kathamala-e2e-'),
));

const CLOCK = ['**/publish.spec.ts', '**/statistics.spec.ts'];

/**
 * Journeys in Debian's Chromium against the real server with the built web app (run
 * `npm run build` first) on a fresh data directory seeded with the demo stories.
 */
export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // Two journeys at a time keep two cores busy, and the two that mostly wait on the clock run
  // beside them (see projects). Each journey makes its own users, so they do not meet.
  workers: 4,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: path.join(repoRoot, 'test-results/e2e'),
  use: {
    baseURL: BASE_URL,
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  // Two journeys wait about a minute on the clock (a scheduled episode, the views' roll-up): they
  // start at once and wait while the rest run, two at a time.
  projects: [
    { name: 'clock', testMatch: CLOCK, workers: 2 },
    { name: 'journeys', testIgnore: CLOCK, workers: 2 },
  ],
  webServer: {
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: repoRoot,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      NODE_ENV: 'production',
      // The journeys join and leave through the carrier simulator (a demo carrier).
      CARRIER_SIMULATOR: '1',
      DEMO_SEED: '1',
      // Every journey signs up or logs in from 127.0.0.1: more than a phone's budget a minute.
      RATE_LIMIT_AUTH_MAX: '1000',
      // A busy CI machine's event loop is not overload; shedding has its own server tests.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    },
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
