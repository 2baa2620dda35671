// npm run bench:stats: times the author statistics answers on the database stats:generate filled.
//
// Needs DATABASE_URL (PostgreSQL, after `npm run stats:generate`). Builds the real app on it
// (buildApp, as the server runs it), waits for the start-up roll-ups to finish, logs in as the
// generated author and, for each period (7, 30, 90, all), calls GET /api/v1/stats/author/ and
// GET /api/v1/stats/summaryV2/ STATS_BENCH_CALLS times (default 30, after 3 warm-up calls)
// through app.inject, one at a time. Prints p50, p95 and max per route and period, and whether
// every p95 is under STATS_BENCH_GOAL_MS (default 200); exits 1 when one is not.
// Results also go to .tmp/stats-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { apiPaths, type StatsPeriod } from '@kathamala/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

/** The account scripts/stats-generate.ts makes (importing it would run the generator). */
const STATS_AUTHOR_EMAIL = 'stats-author@generated.kathamala.lk';
const STATS_AUTHOR_PASSWORD = 'kathamala-stats';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const CALLS = envInt('STATS_BENCH_CALLS', 30);
const WARMUP = 3;
const GOAL_MS = envInt('STATS_BENCH_GOAL_MS', 200);
const PERIODS: StatsPeriod[] = ['7', '30', '90', 'all'];

if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
  console.error('stats-bench: set DATABASE_URL to the PostgreSQL database stats:generate filled.');
  process.exit(2);
}

const built = await buildApp(
  loadConfig({ ...process.env, DEMO_SEED: '0', RATE_LIMIT_MAX: '1000000' }),
  { inMemory: true },
);
const { app, database } = built;

/** Percentile of sorted numbers (nearest rank). */
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

try {
  // The start-up roll-ups (a full pass over every view) would compete with the timed calls.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const { rows } = (await database.db.execute(sql`
      select count(*)::int as n from pgboss.job
      where name in ('engagement.rollup', 'stats.rollup') and state < 'completed'
        and start_after <= now()`)) as unknown as { rows: { n: number }[] };
    if (Number(rows[0]?.n) === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }

  const login = await app.inject({
    method: 'POST',
    url: apiPaths.login(),
    payload: { email: STATS_AUTHOR_EMAIL, password: STATS_AUTHOR_PASSWORD },
  });
  if (login.statusCode !== 200)
    throw new Error(
      `Could not log in as the generated author (run stats:generate first): ${login.body}`,
    );
  const headers = { authorization: `Bearer ${login.json().object.accesstoken as string}` };

  const { rows: sizes } = (await database.db.execute(
    sql`select (select count(*) from story_views)::int as views`,
  )) as unknown as { rows: { views: number }[] };
  console.log(
    `story_views: ${Number(sizes[0]?.views).toLocaleString('en')} rows; ${CALLS} calls each`,
  );

  const results: { route: string; period: StatsPeriod; p50: number; p95: number; max: number }[] =
    [];
  for (const [route, pathOf] of [
    ['author', apiPaths.statsAuthor],
    ['summaryV2', apiPaths.statsSummary],
  ] as const) {
    for (const period of PERIODS) {
      const url = pathOf(period);
      const times: number[] = [];
      for (let i = 0; i < WARMUP + CALLS; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers });
        const ms = performance.now() - t0;
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        if (i >= WARMUP) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const r = { route, period, p50: pct(times, 50), p95: pct(times, 95), max: times.at(-1)! };
      results.push(r);
      console.log(
        `${route.padEnd(10)} period=${period.padEnd(4)} p50 ${r.p50.toFixed(1).padStart(6)} ms` +
          `  p95 ${r.p95.toFixed(1).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms`,
      );
    }
  }
  const slow = results.filter((r) => r.p95 >= GOAL_MS);
  console.log(
    slow.length
      ? `Over ${GOAL_MS} ms at p95: ${slow.map((r) => `${r.route} ${r.period}`).join(', ')}`
      : `Every p95 is under ${GOAL_MS} ms.`,
  );
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(
    path.join(ROOT, '.tmp', 'stats-bench.json'),
    JSON.stringify({ calls: CALLS, goalMs: GOAL_MS, results }, null, 2),
  );
  if (slow.length) process.exitCode = 1;
} finally {
  await app.close();
}
