// npm run soak:load: 100 concurrent clients for 60 s on a mix of reads, searches, signups,
// ratings, comments and bookmarks against a fresh server process, then a check that every
// acknowledged write (a 2xx answer with code 0) is in the database.
//
// 1. starts the real server (NODE_ENV=production, demo seed, PGlite in a temporary DATA_DIR,
//    or a fresh database on DATABASE_URL's PostgreSQL) with rate limits raised to 1,000,000 a
//    minute: one address sends all the load, and at the real limits most of it would be 429;
// 2. signs up SOAK_USERS readers (their tokens make the logged-in calls);
// 3. runs autocannon (SOAK_CONNECTIONS clients for SOAK_DURATION s, 10 s timeout); each request
//    is drawn from the mix, and every write is to a key used once (a new e-mail, a reader and
//    story not rated or bookmarked before, a comment with its own marker), so "acknowledged"
//    means exactly one row to find;
// 4. stops the server with SIGTERM (it must drain and exit 0), reads the database and prints
//    req/s, p50/p99, 5xx, timeouts, 429, acknowledged writes and lost writes.
// Exit status 0 only with 0 5xx, 0 timeouts, 0 lost and a clean exit.
//
// Environment: SOAK_CONNECTIONS (100), SOAK_DURATION (s, 60), SOAK_USERS (150),
// SOAK_LOAD_PORT (4421), DATABASE_URL, SOAK_KEEP=1 keeps the data directory, SOAK_NODE_ARGS
// adds flags to the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  ackedCounts,
  byKind,
  call,
  envInt,
  isEntry,
  loadStories,
  missingWrites,
  newAcked,
  PASSWORD,
  RAISED_LIMITS,
  percentile,
  runAlone,
  soakDatabase,
  soakEmail,
  startServer,
  stopServer,
  sum,
  userOf,
  type StoryInfo,
} from './common.ts';

interface AutocannonRequest {
  setupRequest?: (req: Record<string, unknown>, context: Record<string, unknown>) => unknown;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  '4xx': number;
  '5xx': number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** What one run measured; index.ts prints it with the crash run's. */
export interface LoadFigures {
  database: string;
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  p50ms: number;
  p99ms: number;
  maxMs: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  status429: number;
  status503: number;
  timeouts: number;
  errors: number;
  byOp: Record<string, Record<string, number>>;
  /** Per kind of request: how many, p50 and p99 (ms), and how many took over 2 s. */
  byKind: Record<string, { requests: number; p50: number; p99: number; over2s: number }>;
  acknowledged: Record<string, number>;
  lost: Record<string, number>;
  exitCode: number | null;
  ok: boolean;
}

/** The kinds as the issue's table names them, in its order. */
const KIND_NAMES: Record<string, string> = {
  part: 'episode read',
  details: 'story page',
  list: 'list',
  search: 'search',
  comments: 'comments (read)',
  trending: 'trending',
  bookmarks: 'bookmark list',
  bookmark: 'bookmark',
  comment: 'comment',
  rate: 'rating',
  signup: 'signup',
};
const KIND_ORDER = Object.keys(KIND_NAMES);

const QUERIES = ['monsoon', 'love', 'ghost', 'village', 'කතා', 'ආදරය', 'monson', 'the', 'night'];

/** Runs the load against a fresh server and answers the figures. */
export async function runLoad(): Promise<LoadFigures> {
  const connections = envInt('SOAK_CONNECTIONS', 100);
  const durationS = envInt('SOAK_DURATION', 60);
  const userCount = envInt('SOAK_USERS', 150);
  const port = envInt('SOAK_LOAD_PORT', 4421);
  const { dataDir, db } = await soakDatabase('load');
  const server = await startServer({
    port,
    dataDir,
    log: path.join(dataDir, 'server.log'),
    env: {
      ...db.env,
      ...RAISED_LIMITS,
      DEMO_SEED: '1',
    },
  });
  console.log(
    `load: server up in ${(server.startMs / 1000).toFixed(1)} s on ${db.kind} (rate limits 1,000,000/min)`,
  );

  const all = await loadStories(server.base);
  const free = all.filter((s) => !s.membersOnly);
  if (free.length === 0) throw new Error('No free stories to read and write on.');

  // Readers with tokens; signups during the run join them.
  const users: { token: string; id: number }[] = [];
  const signup = async () => {
    const email = soakEmail('u');
    const res = await call(server.base, 'POST', '/api/v1/user/signup', {
      body: { email, password: PASSWORD, username: `Soak ${email.slice(7, 17)}` },
    });
    const token = res.body?.object?.accesstoken;
    if (res.status !== 200 || typeof token !== 'string')
      throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    users.push({ token, id: userOf(token) });
  };
  for (let i = 0; i < userCount; i += 10)
    await Promise.all(Array.from({ length: Math.min(10, userCount - i) }, signup));
  console.log(
    `load: ${users.length} readers signed up, ${free.length} free stories of ${all.length}`,
  );

  // Write keys used once each: the n-th rating (bookmark) goes to reader n / S, story n % S.
  let rateNext = 0;
  let bookmarkNext = 0;
  const pairAt = (n: number): { user: (typeof users)[number]; story: StoryInfo } | null => {
    const user = users[Math.floor(n / free.length)];
    return user ? { user, story: free[n % free.length]! } : null;
  };
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const acked = newAcked();
  const byOp: Record<string, Record<string, number>> = {};
  const latencies: Record<string, number[]> = {};
  let commentSeq = 0;

  interface Planned {
    op: string;
    method: 'GET' | 'POST';
    path: string;
    token?: string;
    body?: object;
    key?: string;
  }
  // The mix of issue 32 (a new episode drops): 30% episode reads, 15% lists, 10% searches, 7%
  // story pages, 2.5% other reads (comments, trending, bookmarks), and the writes: 13% comments,
  // 9.5% bookmarks, 9% ratings, 4% signups.
  const readOther = (): Planned => {
    const s = pick(all);
    const r = Math.random();
    if (r < 0.5)
      return {
        op: 'comments',
        method: 'GET',
        path: `/api/v1/story/comments/v2/${s.storyId}/?episode=1`,
        token: pick(users).token,
      };
    if (r < 0.75) return { op: 'trending', method: 'GET', path: '/api/v1/story/list/trending/' };
    return {
      op: 'bookmarks',
      method: 'GET',
      path: '/api/v1/story/bookmark/list',
      token: pick(users).token,
    };
  };
  const plan = (): Planned => {
    const r = Math.random();
    if (r < 0.3) {
      const f = pick(free);
      return {
        op: 'part',
        method: 'GET',
        path: `/api/v1/story/${f.storyId}/part/number/${1 + Math.floor(Math.random() * f.parts)}`,
        token: pick(users).token,
      };
    }
    if (r < 0.45)
      return {
        op: 'list',
        method: 'GET',
        path: `/api/v1/story/listV2/?page=${1 + Math.floor(Math.random() * 2)}&sortBy=${pick(['rate', 'new', 'reads'])}`,
      };
    if (r < 0.55)
      return {
        op: 'search',
        method: 'GET',
        path: `/api/v1/story/search/?query=${encodeURIComponent(pick(QUERIES))}&page=1`,
      };
    if (r < 0.62)
      return { op: 'details', method: 'GET', path: `/api/v1/story/${pick(all).storyId}/preview/` };
    if (r < 0.645) return readOther();
    if (r < 0.685) {
      const email = soakEmail('s');
      return {
        op: 'signup',
        method: 'POST',
        path: '/api/v1/user/signup',
        body: { email, password: PASSWORD, username: `Soak ${email.slice(7, 17)}` },
        key: email,
      };
    }
    if (r < 0.775) {
      const pair = pairAt(rateNext);
      if (!pair) return readOther();
      rateNext++;
      const rating = pick(['1', '2.5', '3', '4', '4.5', '5']);
      return {
        op: 'rate',
        method: 'POST',
        path: `/api/v1/story/rate/${pair.story.storyId}/`,
        token: pair.user.token,
        body: { rating },
        key: `${pair.user.id}:${pair.story.storyId}:${rating}`,
      };
    }
    if (r < 0.905) {
      const s = pick(free);
      const marker = `soak-comment-${++commentSeq}`;
      return {
        op: 'comment',
        method: 'POST',
        path: '/api/v1/story/comment/',
        token: pick(users).token,
        body: {
          storyId: s.storyId,
          episodeId: s.episodeId,
          feedback: `A soak comment ${marker}`,
          platform: 'web',
        },
        key: marker,
      };
    }
    const pair = pairAt(bookmarkNext);
    if (!pair) return readOther();
    bookmarkNext++;
    return {
      op: 'bookmark',
      method: 'GET',
      path: `/api/v1/story/bookmark/${pair.story.storyId}/1`,
      token: pair.user.token,
      key: `${pair.user.id}:${pair.story.storyId}`,
    };
  };

  const request: AutocannonRequest = {
    // The context lives for one request (one request in the list): the plan rides on it.
    setupRequest: (req, context) => {
      const p = plan();
      context.plan = p;
      // Called as the request is written (autocannon builds each next request then).
      context.sent = performance.now();
      return {
        ...req,
        method: p.method,
        path: p.path,
        headers: {
          accept: 'application/json',
          ...(p.token ? { authorization: `Bearer ${p.token}` } : {}),
          ...(p.body ? { 'content-type': 'application/json' } : {}),
        },
        body: p.body ? JSON.stringify(p.body) : undefined,
      };
    },
    onResponse: (status, body, context) => {
      const p = context.plan as Planned;
      (latencies[p.op] ??= []).push(performance.now() - (context.sent as number));
      const counts = (byOp[p.op] ??= {});
      const cls = `${Math.floor(status / 100)}xx`;
      counts[cls] = (counts[cls] ?? 0) + 1;
      if (status === 429 || status === 503)
        counts[String(status)] = (counts[String(status)] ?? 0) + 1;
      if (status < 200 || status >= 300 || !p.key) return;
      let answer: { code?: number; object?: Record<string, unknown> } = {};
      try {
        answer = JSON.parse(body) as typeof answer;
      } catch {
        return;
      }
      if (answer.code !== 0) return;
      if (p.op === 'signup') {
        acked.signups.add(p.key.toLowerCase());
        const token = answer.object?.accesstoken;
        if (typeof token === 'string') users.push({ token, id: userOf(token) });
      } else if (p.op === 'rate') {
        const [u, s, rating] = p.key.split(':');
        acked.ratings.set(`${u}:${s}`, Number(rating));
      } else if (p.op === 'comment') {
        const id = (answer.object?.comment as { commentId?: number } | undefined)?.commentId;
        if (typeof id === 'number') acked.comments.add(id);
      } else if (p.op === 'bookmark') {
        acked.bookmarks.add(p.key);
      }
    },
  };

  console.log(`load: ${connections} clients for ${durationS} s ...`);
  const result = await autocannon({
    url: server.base,
    connections,
    duration: durationS,
    timeout: 10,
    requests: [request],
  });

  const exitCode = await stopServer(server);
  console.log(`load: server stopped with SIGTERM, exit code ${exitCode}; checking the database`);

  const missing = await missingWrites(db, acked);
  const lost = {
    signups: missing.signups.length,
    ratings: missing.ratings.length,
    comments: missing.comments.length,
    bookmarks: missing.bookmarks.length,
  };
  const codes = result.statusCodeStats;
  const figures: LoadFigures = {
    database: db.kind,
    connections,
    durationS,
    requests: result.requests.total,
    reqPerSec: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    maxMs: result.latency.max,
    status2xx: result['2xx'],
    status4xx: result['4xx'],
    status5xx: result['5xx'],
    status429: codes['429']?.count ?? 0,
    status503: codes['503']?.count ?? 0,
    timeouts: result.timeouts,
    errors: result.errors,
    byOp,
    byKind: Object.fromEntries(
      Object.entries(latencies).map(([op, ms]) => [
        op,
        {
          requests: ms.length,
          p50: Math.round(percentile(ms, 50)),
          p99: Math.round(percentile(ms, 99)),
          over2s: ms.filter((t) => t > 2000).length,
        },
      ]),
    ),
    acknowledged: ackedCounts(acked),
    lost,
    exitCode,
    ok: false,
  };
  figures.ok =
    figures.status5xx === 0 &&
    figures.timeouts === 0 &&
    Object.values(lost).every((n) => n === 0) &&
    exitCode === 0;
  return figures;
}

/** Prints the figures as the issue names them. */
export function printLoad(f: LoadFigures) {
  console.log(`
Load (${f.connections} clients, ${f.durationS} s, ${f.database}, rate limits raised)
  requests        ${f.requests}  (${f.reqPerSec} req/s)
  latency         p50 ${f.p50ms} ms, p99 ${f.p99ms} ms, max ${f.maxMs} ms
  2xx / 4xx       ${f.status2xx} / ${f.status4xx}
  5xx             ${f.status5xx}  (503 under pressure: ${f.status503})
  timeouts        ${f.timeouts}  (socket errors ${f.errors})
  429             ${f.status429}
  acknowledged    ${sum(f.acknowledged)} writes (${byKind(f.acknowledged)})
  lost            ${sum(f.lost)} (${byKind(f.lost)})
  drained exit    ${f.exitCode}
  by operation    ${Object.entries(f.byOp)
    .map(([op, c]) => `${op} ${JSON.stringify(c)}`)
    .join('\n                  ')}

  | kind | requests | p50 | p99 | over 2 s |
  |---|---|---|---|---|
${Object.entries(f.byKind ?? {})
  .sort(([a], [b]) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b))
  .map(
    ([op, k]) =>
      `  | ${KIND_NAMES[op] ?? op} | ${k.requests} | ${k.p50} ms | ${k.p99} ms | ${k.over2s} |`,
  )
  .join('\n')}
  ${f.ok ? 'PASS' : 'FAIL'}`);
}

if (isEntry(import.meta.url)) await runAlone('soak-load', runLoad, printLoad);
