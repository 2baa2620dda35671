import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { importsReact, preactCompat } from './apps/web/vite.config.ts';

// One vitest run covers the whole repository as three projects:
//   domain  packages/*  pure rules, table tests
//   server  apps/server app.inject on a real database: PGlite in memory per test
//           file by default, PostgreSQL when DATABASE_URL is set
//           (scripts/with-postgres.sh; npm test runs this project on both)
//   web     apps/web    components and client logic (node environment), on Preact through
//                       preact/compat as the build ships them (apps/web/vite.config.ts)
// Playwright journeys (apps/web/e2e) are not vitest tests.
const exclude = [
  '**/node_modules/**',
  '**/dist/**',
  '**/e2e/**',
  '**/.tmp/**',
  '**/data/**',
  '**/test-results/**',
];

export default defineConfig({
  test: {
    environment: 'node',
    // Server test files boot an app and migrate a fresh database.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // The machine (and CI) has 2 cores; PGlite instances are memory-hungry.
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'domain', include: ['packages/**/src/**/*.test.ts'], exclude },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude,
          // Each file builds its own app on its own database; outside an app the server's modules
          // keep only caches keyed by value (statement names, quoted URLs). So a worker evaluates
          // the module graph once, not once per file (decision record 57).
          isolate: false,
        },
      },
      {
        extends: true,
        // `react` is preact/compat here as in the build: JSX compiles to its runtime, and the
        // libraries that import `react` are inlined so the same names reach them. Vitest leaves
        // Vite's `module` condition out; with it, as in the SSR build, those libraries resolve
        // to their ES modules (react-router's CommonJS build would require the real React).
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact/compat' } },
        resolve: { alias: preactCompat },
        ssr: { resolve: { conditions: [...defaultServerConditions] } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude,
          // The UI strings in both languages (the browser loads one on demand).
          setupFiles: ['apps/web/src/i18n/all.ts'],
          server: { deps: { inline: importsReact } },
        },
      },
    ],
  },
});
