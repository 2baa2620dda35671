// npm run bench:search: times search on the database search:generate filled.
//
// Needs DATABASE_URL (PostgreSQL, after `npm run search:generate`). Opens the database through
// the app's client and calls the stories service's search (typo lookup, then the search query;
// the route's response cache is left out: repeated queries would only time the cache). Queries
// are taken from the vocabulary itself: for English and Sinhala, the most common words (in the
// most stories) and rare ones (in 2-10 stories), each as typed and with two neighbouring
// letters swapped (one typo). Each query runs SEARCH_BENCH_CALLS times (default 5, after one
// warm-up) over SEARCH_BENCH_WORDS words per kind (default 8). Prints p50, p95 and max per kind
// and whether every p95 is under SEARCH_BENCH_GOAL_MS (default 50); exits 1 when one is not. With
// PostgreSQL on this machine it also prints the mean CPU time a search used (PostgreSQL's server
// processes, from /proc, and this process's): on a busy machine that is what a search costs.
// Results also go to .tmp/search-bench.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { storiesRepo } from '../apps/server/src/modules/stories/repo.ts';
import { storiesService } from '../apps/server/src/modules/stories/service.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const CALLS = envInt('SEARCH_BENCH_CALLS', 5);
const WORDS = envInt('SEARCH_BENCH_WORDS', 8);
const GOAL_MS = envInt('SEARCH_BENCH_GOAL_MS', 50);

const url = process.env.DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'search-bench: set DATABASE_URL to the PostgreSQL database search:generate filled.',
  );
  process.exit(2);
}

const database = await openDatabase({ databaseUrl: url, pgliteDir: null });
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;
const search = storiesService(storiesRepo(database.db)).search;

/**
 * CPU time (ms) the database's server processes have used so far, when PostgreSQL runs on this
 * machine (/proc); null elsewhere. On a busy machine wall-clock times mostly measure waiting for
 * a core: CPU time per search says what a search costs whatever else runs.
 */
const databaseCpuMs = async () => {
  try {
    const pids = await rows<{ pid: number }>(
      sql`select pid from pg_stat_activity where datname = current_database()`,
    );
    let ticks = 0;
    for (const { pid } of pids) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
};
const nodeCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Percentile of sorted numbers (nearest rank). */
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The word with two neighbouring letters in its middle swapped (one typo). */
const swapped = (w: string) => {
  const l = [...w];
  for (let i = Math.floor(l.length / 2); i + 1 < l.length; i++)
    if (l[i] !== l[i + 1]) {
      [l[i], l[i + 1]] = [l[i + 1]!, l[i]!];
      return l.join('');
    }
  return w;
};

const SCRIPTS = { english: '^[a-z]{5,8}$', sinhala: '^[\u0D80-\u0DFF]{5,8}$' } as const;

try {
  const [sizes] = await rows<{ stories: number; episodes: number; words: number }>(sql`
    select (select count(*) from stories)::int as stories,
      (select count(*) from episodes)::int as episodes,
      (select count(*) from search_words)::int as words`);
  console.log(
    `${Number(sizes!.stories).toLocaleString('en')} stories, ` +
      `${Number(sizes!.episodes).toLocaleString('en')} episodes, ` +
      `${Number(sizes!.words).toLocaleString('en')} vocabulary words; ` +
      `${WORDS} words x ${CALLS} calls per kind; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const results: {
    kind: string;
    words: string[];
    p50: number;
    p95: number;
    max: number;
    found: number;
    dbCpuMs: number | null;
    nodeCpuMs: number;
  }[] = [];
  for (const [script, pattern] of Object.entries(SCRIPTS)) {
    const common = await rows<{ word: string }>(sql`
      select word from search_words where word ~ ${pattern}
      order by stories desc, word limit ${WORDS}`);
    const rare = await rows<{ word: string }>(sql`
      select word from search_words where word ~ ${pattern} and stories between 2 and 10
      order by md5(word) limit ${WORDS}`);
    for (const [freq, list] of [
      ['common', common],
      ['rare', rare],
    ] as const) {
      for (const typo of [false, true]) {
        const words = list.map((r) => (typo ? swapped(r.word) : r.word));
        const times: number[] = [];
        let found = 0;
        // Warm-up calls are outside the CPU count: only the timed calls.
        let dbCpu = 0;
        let nodeCpu = 0;
        let dbKnown = true;
        for (const q of words)
          for (let i = 0; i <= CALLS; i++) {
            const db0 = i > 0 ? await databaseCpuMs() : null;
            const node0 = nodeCpuMs();
            const t0 = performance.now();
            const page = await search(q, 1);
            const ms = performance.now() - t0;
            const node1 = nodeCpuMs();
            if (i > 0) {
              times.push(ms);
              nodeCpu += node1 - node0;
              const db1 = await databaseCpuMs();
              if (db0 === null || db1 === null) dbKnown = false;
              else dbCpu += db1 - db0;
            } else if (page.total > 0) found++;
          }
        times.sort((a, b) => a - b);
        const kind = `${script} ${freq} ${typo ? 'typo' : 'exact'}`;
        const r = {
          kind,
          words,
          p50: pct(times, 50),
          p95: pct(times, 95),
          max: times.at(-1)!,
          found,
          // Mean CPU ms a search used: PostgreSQL's (10 ms ticks, so a mean over many) and ours.
          dbCpuMs: dbKnown ? dbCpu / times.length : null,
          nodeCpuMs: nodeCpu / times.length,
        };
        results.push(r);
        console.log(
          `${kind.padEnd(22)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms` +
            `  max ${r.max.toFixed(1).padStart(6)} ms  cpu db ${r.dbCpuMs === null ? '?' : r.dbCpuMs.toFixed(1)}` +
            ` + node ${r.nodeCpuMs.toFixed(1)} ms  found ${found}/${words.length}  e.g. ${words[0]}`,
        );
      }
    }
  }
  const load = loadavg().map((l) => Number(l.toFixed(1)));
  console.log(`load average at the end: ${load.join(' ')}`);
  const slow = results.filter((r) => r.p95 >= GOAL_MS);
  console.log(
    slow.length
      ? `Over ${GOAL_MS} ms at p95: ${slow.map((r) => r.kind).join(', ')}`
      : `Every p95 is under ${GOAL_MS} ms.`,
  );
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(
    path.join(ROOT, '.tmp', 'search-bench.json'),
    JSON.stringify({ sizes, calls: CALLS, goalMs: GOAL_MS, load, results }, null, 2),
  );
  if (slow.length) process.exitCode = 1;
} finally {
  await database.close();
}
