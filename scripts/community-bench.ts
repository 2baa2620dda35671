// npm run bench:community: times the community's lists on the database community:generate filled.
//
// Needs DATABASE_URL (PostgreSQL, after `npm run community:generate`). Builds the real app on it
// (buildApp, as the server runs it), logs in as the generated bench reader and calls, through
// app.inject one at a time, COMMUNITY_BENCH_CALLS times each (default 50, after 3 warm-up calls):
//   - the feed's page 1 and page 50 as the database answers them: the public feed is kept a few
//     seconds for everyone, so each call asks a URL the cache has not seen (`?page=0…01`, the
//     same page to the route's validator);
//   - the feed's page 1 from the cache, as most readers get it;
//   - the busiest poster's timeline, asked by the logged-in reader (never cached);
//   - the reader's own feed (/api/v1/feed/list/: 200 people and an author followed, a bookmark).
// Prints p50, p95 and max for each, and whether every database-answered p95 is under
// COMMUNITY_BENCH_GOAL_MS (default 50); exits 1 when one is not. Results go to
// .tmp/community-bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { apiPaths, communityPaths } from '@kathamala/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

/** The account scripts/community-generate.ts makes (importing it would run the generator). */
const BENCH_EMAIL = 'community-bench@generated.kathamala.lk';
const BENCH_PASSWORD = 'kathamala-community';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const CALLS = envInt('COMMUNITY_BENCH_CALLS', 50);
const WARMUP = 3;
const GOAL_MS = envInt('COMMUNITY_BENCH_GOAL_MS', 50);

if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
  console.error(
    'community-bench: set DATABASE_URL to the PostgreSQL database community:generate filled.',
  );
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

/** `?page=N` with `zeros` leading zeros: a URL the cache has not kept, the same page. */
const uncachedFeed = (page: number, zeros: number) =>
  `/api/v1/community/feed?page=${'0'.repeat(zeros)}${page}`;

try {
  const login = await app.inject({
    method: 'POST',
    url: apiPaths.login(),
    payload: { email: BENCH_EMAIL, password: BENCH_PASSWORD },
  });
  if (login.statusCode !== 200)
    throw new Error(
      `Could not log in as the bench reader (run community:generate first): ${login.body}`,
    );
  const headers = { authorization: `Bearer ${login.json().object.accesstoken as string}` };

  const { rows } = (await database.db.execute(sql`
    select (select count(*) from community_posts)::int as posts,
      (select count(*) from community_likes)::int as likes,
      (select count(*) from follows)::int as follows,
      (select user_id from community_posts where status = 'approved'
        group by user_id order by count(*) desc limit 1)
        as busiest`)) as unknown as {
    rows: { posts: number; likes: number; follows: number; busiest: number }[];
  };
  const sizes = rows[0]!;
  console.log(
    `${Number(sizes.posts).toLocaleString('en')} posts, ${Number(sizes.likes).toLocaleString('en')} likes, ${Number(sizes.follows).toLocaleString('en')} follows; ${CALLS} calls each`,
  );

  const cases: { name: string; url: (i: number) => string; auth: boolean; cached?: true }[] = [
    { name: 'feed page 1', url: (i) => uncachedFeed(1, i + 1), auth: false },
    { name: 'feed page 50', url: (i) => uncachedFeed(50, i + 1), auth: false },
    { name: 'feed page 1 (cached)', url: () => communityPaths.feed(1), auth: false, cached: true },
    { name: 'timeline', url: () => communityPaths.timeline(Number(sizes.busiest)), auth: true },
    { name: 'personal feed', url: () => communityPaths.personalFeed(1), auth: true },
  ];
  const results: { name: string; p50: number; p95: number; max: number; cached: boolean }[] = [];
  for (const c of cases) {
    const times: number[] = [];
    for (let i = 0; i < WARMUP + CALLS; i++) {
      const url = c.url(i);
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: c.auth ? headers : {} });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      if (res.json().object.list.length === 0) throw new Error(`${url}: an empty list`);
      if (i >= WARMUP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const r = {
      name: c.name,
      p50: pct(times, 50),
      p95: pct(times, 95),
      max: times.at(-1)!,
      cached: Boolean(c.cached),
    };
    results.push(r);
    console.log(
      `${c.name.padEnd(22)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms`,
    );
  }
  const slow = results.filter((r) => !r.cached && r.p95 > GOAL_MS);
  console.log(
    slow.length
      ? `Over ${GOAL_MS} ms at p95: ${slow.map((r) => r.name).join(', ')}`
      : `Every p95 is at most ${GOAL_MS} ms.`,
  );
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(
    path.join(ROOT, '.tmp', 'community-bench.json'),
    JSON.stringify({ calls: CALLS, goalMs: GOAL_MS, sizes, results }, null, 2),
  );
  if (slow.length) process.exitCode = 1;
} finally {
  await app.close();
}
