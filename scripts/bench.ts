// npm run bench: the hot routes as a ratio to a bare node:http server that
// sends the same bytes, measured in the same run on the same machine.
//
// 1. builds the production server when apps/server/dist/main.js (or the web
//    build) is missing or older than the sources (`npm run build`, as
//    `npm start` does), then runs it: node apps/server/dist/main.js with
//    NODE_ENV=production and DEMO_SEED=1, on a free loopback port;
// 2. once per database: PGlite in a temporary DATA_DIR, and PostgreSQL 15
//    started by scripts/with-postgres.sh (this script runs itself again inside
//    it); on PostgreSQL once per server process count (BENCH_WORKERS, cluster
//    mode: WORKERS=N), each on a database of its own;
// 3. waits until the server has finished its start-up work (under 5% of a core for 2 s);
// 4. for each hot route fetches the answer once (no Accept-Encoding, as wrk sends none), then
//    starts a bare node:http server in a child process answering exactly those bytes: the
//    same body and the same headers in the same order (node:http adds Date, Connection,
//    Keep-Alive and the length, as it does for the app); and once more one answering the same
//    body with only its content type, the bench's ceiling before (our ~1 KB of security and
//    rate-limit headers cost a bare server about a third of its throughput); and a third, the
//    framework's own ceiling: Fastify with @fastify/rate-limit (the app's framework and limiter,
//    nothing else) sending the same bytes from its route handler, FRAMEWORK_SERVER;
// 5. runs wrk (-t1 -c32) against each: a 1 s warm-up each, then 5 rounds of 2 s in turn (app,
//    bare, body-only bare, Fastify; every other round in the reverse order), so that a spell of
//    noise on a shared host, or its speed drifting through a round, falls on both sides of a
//    ratio alike; each ratio is the median of its rounds' ratios, and the lowest and highest of
//    them are printed beside it. Prints one table per database and process count: route, app
//    req/s, bare req/s (means of the rounds), ratio (app / bare, same bytes), body-only bare
//    req/s and the ratio to it, Fastify's req/s and its ratio to the bare server, the CPU ratio
//    (the bare server's CPU time per request over the app's, read from /proc around each round:
//    on a shared host the req/s of a round also measure how much CPU the host left, this does
//    not), p99 latencies (the median round's); on PostgreSQL also 1 vs 2 processes.
//    Any non-2xx answer or socket error is a problem (exit 1), but for the 503s the server
//    sheds past capacity (plugins/pressure.ts) under the cache-missed search, which runs on
//    PGlite's one connection: those are counted by the script, left out of req/s and noted.
//
// Routes: the member's episode read (bearer token from POST /api/v1/user/login,
// sent by wrk as a header), listV2, trending, preview, search with the response
// cache missed (each request's URL spells the same query differently, see
// CACHE_MISS_SCRIPT, so the search runs every time), the same search cached
// (one URL over and over), story details and home page SSR.
//
// Pinning: with one server process the server and the bare server run on CPU 1
// (taskset -c 1) and wrk on CPU 0, so neither takes the other's core; with two
// or more nothing is pinned (the workers need both cores). PostgreSQL itself is
// never pinned. Without taskset, or on one CPU, nothing is pinned.
//
// Results also go to .tmp/bench.json. Loopback only; every child is killed at
// the end, on error, on Ctrl-C and when the overall time limit fires. Timings
// are not pass/fail: this is not part of npm test.
//
// Environment: BENCH_DB (pglite | postgres | both; default both when
// PostgreSQL's initdb exists, see scripts/with-postgres.sh, else pglite),
// BENCH_WORKERS (server processes on PostgreSQL, default 1,2), BENCH_DURATION
// (s a round, default 2), BENCH_ROUNDS (5), BENCH_WARMUP (s, 1), BENCH_CONNECTIONS (32), BENCH_QUERY
// (monsoon), BENCH_TIMEOUT (s, 900), BENCH_STORY_ID (default: the first story
// of listV2), BENCH_BUILD (auto; 1 always builds, 0 never), WEB_DIST (passed
// to the server), RATE_LIMIT_MAX (passed to the server, default 1000000000, the
// most config.ts accepts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stopChild } from './stop-child.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const envInt = (name: string, fallback: number): number => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const DURATION_S = envInt('BENCH_DURATION', 2);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const WARMUP_S = envInt('BENCH_WARMUP', 1);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const TIMEOUT_S = envInt('BENCH_TIMEOUT', 900);
const QUERY = process.env.BENCH_QUERY ?? 'monsoon';
const MEMBER = { email: 'member@demo.kathamala.lk', password: 'kathamala-demo' };
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** Set when this script runs itself inside scripts/with-postgres.sh: the PostgreSQL pass only. */
const PG_CHILD_OUT = process.env.BENCH_PG_CHILD_OUT;
const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const WEB_DIST = path.resolve(process.env.WEB_DIST || path.join(ROOT, 'apps/web/dist'));

type Db = 'pglite' | 'postgres';

interface WrkResult {
  rps: number;
  p50ms: number | null;
  p99ms: number | null;
  requests: number;
  non2xx: number;
  /**
   * 503 answers (the pressure plugin shedding load), counted by a script that counts them
   * (CACHE_MISS_SCRIPT); left out of `rps`, which counts only the answers served.
   */
  shed: number;
  socketErrors: number;
  /** The server's CPU time (its process and children, from /proc) over the run; null unknown. */
  cpuMs?: number | null;
}
interface RouteResult {
  route: string;
  path: string;
  status: number;
  contentType: string;
  bytes: number;
  app?: WrkResult;
  /** The bare server sending the same bytes: status line, headers and body. */
  bare?: WrkResult;
  ratio?: number;
  /** The lowest and highest of the rounds' ratios. */
  ratioRange?: [number, number];
  /** The bare server sending the same body with only a content type (the bench's old ceiling). */
  bodyOnly?: WrkResult;
  bodyOnlyRatio?: number;
  /** Fastify and its rate limit alone sending the same bytes (FRAMEWORK_SERVER). */
  framework?: WrkResult;
  /** Its req/s over the bare server's, as `ratio`: the most any app on them could reach. */
  frameworkRatio?: number;
  /**
   * CPU per request, bare over app (same bytes): what each answer costs the server, apart
   * from how much CPU a noisy host happened to leave it in a round.
   */
  cpuRatio?: number;
  /** What went wrong: any makes the bench exit 1. */
  problems: string[];
  /** What a reader of the table should know but is not a fault (load shed by design). */
  notes: string[];
}
interface Table {
  db: Db;
  workers: number;
  pinned: boolean;
  storyId: number | string | null;
  episodeStoryId: number | string | null;
  results: RouteResult[];
}

// ---------------------------------------------------------------- children --
const children = new Set<ChildProcess>();
let tempDir: string | undefined;
let postgresGroup: ChildProcess | undefined;

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killAllNow(): void {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    if (child.pid && child === postgresGroup) {
      // The PostgreSQL pass is a process group of its own: SIGTERM to all of it, so that the
      // bench inside stops its servers and with-postgres.sh then stops PostgreSQL.
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    } else child.kill('SIGKILL');
  }
  if (tempDir) {
    rmSync(tempDir, { recursive: true, force: true });
    tempDir = undefined;
  }
}
process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\nbench: ${signal}, stopping`);
    killAllNow();
    process.exit(130);
  });
}
const deadline = setTimeout(() => {
  console.error(`bench: gave up after ${TIMEOUT_S}s (BENCH_TIMEOUT)`);
  killAllNow();
  process.exit(1);
}, TIMEOUT_S * 1000);
deadline.unref();

// ----------------------------------------------------------------- helpers --
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The headers as sent: [name, value, ...], in order. */
  rawHeaders: string[];
  body: Buffer;
}

/** A plain request without Accept-Encoding: the bytes wrk will receive. */
function request(
  port: number,
  urlPath: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
  timeoutMs = 15_000,
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: HOST,
        port,
        path: urlPath,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${urlPath} timed out`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** taskset works here and there are two CPUs or more: pinning is possible. */
const CAN_PIN = os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** `cmd args` on one CPU (taskset -c cpu) when `cpu` is given and pinning is possible. */
function pinned(cpu: number | null, cmd: string, args: string[]): [string, string[]] {
  return cpu !== null && CAN_PIN ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args];
}

function toMs(value: string, unit: string): number {
  const v = Number.parseFloat(value);
  if (unit === 'us') return v / 1000;
  if (unit === 's') return v * 1000;
  if (unit === 'm') return v * 60_000;
  return v; // ms
}

function parseWrk(out: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!rps?.[1]) throw new Error(`could not parse wrk output:\n${out}`);
  const pct = (p: string): number | null => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m?.[1] && m[2] ? Math.round(toMs(m[1], m[2]) * 1000) / 1000 : null;
  };
  const requests = /(\d+) requests in/.exec(out);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const shed = Number(/^Shed \(503\): (\d+)$/m.exec(out)?.[1] ?? 0);
  const total = requests?.[1] ? Number(requests[1]) : 0;
  const answered = Number.parseFloat(rps[1]);
  return {
    // A shed answer takes a fraction of a served one's CPU: counted in, it would flatter the rate.
    rps: total > 0 && shed > 0 ? (answered * (total - shed)) / total : answered,
    p50ms: pct('50'),
    p99ms: pct('99'),
    requests: total,
    non2xx: non2xx?.[1] ? Number(non2xx[1]) : 0,
    shed,
    socketErrors: sock ? sock.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
  };
}

interface Load {
  /** Request headers wrk sends (the member's bearer token). */
  headers?: Record<string, string>;
  /** A wrk Lua script (the search that misses the response cache). */
  script?: string;
  /** Pin wrk to CPU 0. */
  pin: boolean;
}

async function wrk(url: string, seconds: number, load: Load): Promise<WrkResult> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '--timeout', '5s'];
  for (const [name, value] of Object.entries(load.headers ?? {}))
    args.push('-H', `${name}: ${value}`);
  if (load.script) args.push('-s', load.script);
  args.push(url);
  const [cmd, argv] = pinned(load.pin ? 0 : null, 'wrk', args);
  const child = track(spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${out}`);
  return parseWrk(out);
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One server's rounds as one result: mean req/s, the median round's latencies, summed counts. */
function merged(rounds: WrkResult[]): WrkResult {
  const byRps = [...rounds].sort((a, b) => a.rps - b.rps);
  const mid = byRps[Math.floor(byRps.length / 2)]!;
  const sum = (f: (r: WrkResult) => number) => rounds.reduce((n, r) => n + f(r), 0);
  return {
    rps: Math.round((sum((r) => r.rps) / rounds.length) * 100) / 100,
    p50ms: mid.p50ms,
    p99ms: mid.p99ms,
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    shed: sum((r) => r.shed),
    socketErrors: sum((r) => r.socketErrors),
    cpuMs: rounds.every((r) => typeof r.cpuMs === 'number') ? sum((r) => r.cpuMs!) : null,
  };
}

/** A server under measure: where wrk sends its requests, and whose CPU time is read. */
interface Measured {
  port: number;
  pid: number | undefined;
}

/**
 * The app and its bare servers measured in turn: a warm-up each, then ROUNDS rounds of
 * DURATION_S each, app first in even rounds and last in odd ones (a drift of the host's speed
 * through a round then favours neither). Returns each server's rounds, in the order of
 * `servers`, with the CPU time each server spent in each round.
 */
async function measureInTurn(
  servers: Measured[],
  urlPath: string,
  load: Load,
): Promise<WrkResult[][]> {
  const url = (port: number) => `http://${HOST}:${port}${urlPath}`;
  for (const { port } of servers) await wrk(url(port), WARMUP_S, load);
  const rounds: WrkResult[][] = servers.map(() => []);
  const ticks = (pid: number | undefined) => (pid === undefined ? null : cpuTicks(pid));
  for (let i = 0; i < ROUNDS; i++) {
    const order = [...servers.keys()];
    if (i % 2 === 1) order.reverse();
    for (const k of order) {
      const { port, pid } = servers[k]!;
      const before = ticks(pid);
      const result = await wrk(url(port), DURATION_S, load);
      const after = ticks(pid);
      result.cpuMs = before === null || after === null ? null : (after - before) * MS_PER_TICK;
      rounds[k]!.push(result);
    }
  }
  return rounds;
}

/** CPU time per request of merged rounds, in µs; undefined when unknown. */
const cpuPerRequest = (r: WrkResult): number | undefined =>
  typeof r.cpuMs === 'number' && r.requests > r.shed
    ? (r.cpuMs * 1000) / (r.requests - r.shed)
    : undefined;

/** Bare CPU per request over the app's (higher is better, as the req/s ratio). */
const cpuRatio = (app: WrkResult, bare: WrkResult): number | undefined => {
  const a = cpuPerRequest(app);
  const b = cpuPerRequest(bare);
  return a && b ? Math.round((b / a) * 1000) / 1000 : undefined;
};

/** The lowest and highest of the rounds' app / bare ratios: how far the host moved them. */
const ratioRange = (app: WrkResult[], bare: WrkResult[]): [number, number] | undefined => {
  if (!bare.every((b) => b.rps > 0)) return undefined;
  const ratios = app.map((a, i) => Math.round((a.rps / bare[i]!.rps) * 100) / 100);
  return [Math.min(...ratios), Math.max(...ratios)];
};

/** The median of the rounds' app / bare ratios (a round's pair ran seconds apart). */
const pairedRatio = (app: WrkResult[], bare: WrkResult[]): number | undefined =>
  bare.every((b) => b.rps > 0)
    ? Math.round(median(app.map((a, i) => a.rps / bare[i]!.rps)) * 1000) / 1000
    : undefined;

// Answers every request, whatever its path and headers, with the app's bytes.
const BARE_SERVER = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.env.BENCH_BODY_FILE);
const headers = JSON.parse(process.env.BENCH_HEADERS).concat('content-length', body.length);
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

// Fastify with @fastify/rate-limit and nothing else, sending the app's bytes from its handler
// for every GET: the app's framework and limiter, without its hooks, caches and routes. Its
// ratio to the bare server is the ceiling of any app built on them. The x-ratelimit-* headers
// come from the plugin itself, as in the app, at its one-minute window and a limit out of reach.
const FRAMEWORK_SERVER = `
const body = require('node:fs').readFileSync(process.env.BENCH_BODY_FILE);
const pairs = JSON.parse(process.env.BENCH_HEADERS);
const headers = {};
for (let i = 0; i + 1 < pairs.length; i += 2)
  if (!/^x-ratelimit-/i.test(pairs[i])) headers[pairs[i].toLowerCase()] = pairs[i + 1];
const app = require('fastify')({ logger: false });
app.register(require('@fastify/rate-limit'), { max: 1e9, timeWindow: 60000 }).after(() => {
  app.get('*', (req, reply) => { reply.headers(headers).send(body); });
});
app.listen({ port: 0, host: '127.0.0.1' }).then(() =>
  process.stdout.write(app.server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

// Each request's URL differs while asking the same thing, so the response cache (keyed by URL)
// misses and the search itself runs: every letter of the query is sent as itself or
// percent-encoded in upper or lower case hex, and `page=1` is left out, put after or put
// before. For 'monsoon' that is over 4,000 distinct URLs before one repeats, more than the
// cache holds and more than the uncached search answers within the cache's time to live.
// Needs a query of ASCII letters and digits (BENCH_QUERY); any other is sent as it is.
const CACHE_MISS_SCRIPT = `
local q = wrk.path:match("%?query=(%w+)$")
local n = 0
local function encode(k)
  local out = {}
  for i = 1, #q do
    local c = q:sub(i, i)
    local d = k % 3
    k = math.floor(k / 3)
    if d == 0 then out[i] = c
    elseif d == 1 then out[i] = string.format("%%%02X", c:byte())
    else out[i] = string.format("%%%02x", c:byte()) end
  end
  return table.concat(out)
end
request = function()
  if not q then return wrk.format(nil, wrk.path) end
  n = n + 1
  local form = n % 3
  local query = "query=" .. encode(math.floor(n / 3))
  local path
  if form == 0 then path = "/api/v1/story/search/?" .. query
  elseif form == 1 then path = "/api/v1/story/search/?" .. query .. "&page=1"
  else path = "/api/v1/story/search/?page=1&" .. query end
  return wrk.format(nil, path)
end
-- Past capacity the server sheds load with 503 (plugins/pressure.ts); wrk counts those only
-- as non-2xx, so they are counted here, per thread, and summed when wrk is done.
shed = 0
local threads = {}
setup = function(thread) table.insert(threads, thread) end
response = function(status) if status == 503 then shed = shed + 1 end end
done = function()
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("shed") end
  io.write(string.format("Shed (503): %d\\n", total))
end
`;

/**
 * The headers the bare server sends: the app's own, in its order, but for those node:http
 * writes itself (Date, Connection, Keep-Alive) and the length, which it adds. With `bodyOnly`,
 * only the content type, as the bench measured before (the body's bytes alone).
 */
function bareHeaders(first: Fetched, bodyOnly: boolean): string[] {
  if (bodyOnly) {
    const type = first.headers['content-type'];
    return type ? ['content-type', String(type)] : [];
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < first.rawHeaders.length; i += 2) {
    const name = first.rawHeaders[i]!;
    if (/^(date|connection|keep-alive|content-length|transfer-encoding)$/i.test(name)) continue;
    kept.push(name, first.rawHeaders[i + 1]!);
  }
  return kept;
}

async function startBare(
  bodyFile: string,
  headers: string[],
  cpu: number | null,
  script = BARE_SERVER,
): Promise<{ child: ChildProcess; port: number }> {
  const [cmd, argv] = pinned(cpu, process.execPath, ['-e', script]);
  const child = track(
    spawn(cmd, argv, {
      // From the repository, whose node_modules hold Fastify for FRAMEWORK_SERVER.
      cwd: ROOT,
      env: { ...process.env, BENCH_BODY_FILE: bodyFile, BENCH_HEADERS: JSON.stringify(headers) },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (c: Buffer) => {
      buf += c.toString();
      const line = buf.split('\n')[0];
      if (buf.includes('\n') && line) resolve(Number(line));
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { child, port };
}

const tail = (file: string, lines = 40) =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '';

/** The production build (dist/main.js) with `workers` processes; PGlite unless `databaseUrl`. */
async function startApp(opts: {
  dataDir: string;
  logFile: string;
  databaseUrl: string | null;
  workers: number;
  cpu: number | null;
}): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    CARRIER_SIMULATOR: '1',
    HOST,
    PORT: String(port),
    PUBLIC_URL: `http://${HOST}:${port}`,
    DATA_DIR: opts.dataDir,
    DEMO_SEED: '1',
    WORKERS: String(opts.workers),
    WEB_DIST,
    // One wrk client stands for many readers: lift the per-address limit out of reach. At 1M
    // a minute it passed a quarter of its budget within the run, and from there the store
    // counts each of its requests in PostgreSQL to make the 429 exact, which no reader's own
    // traffic comes near (plugins/rate-limit-store.ts). The limit is still counted.
    RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX ?? '1000000000',
  };
  // PGlite in the temporary DATA_DIR, or the pass's own database: never the caller's.
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  const log = openSync(opts.logFile, 'a');
  const [cmd, argv] = pinned(opts.cpu, process.execPath, ['--enable-source-maps', SERVER_MAIN]);
  const child = track(spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', log, log] }));
  closeSync(log);
  const started = Date.now();
  while (Date.now() - started < 180_000) {
    if (child.exitCode !== null) break;
    // With several workers, wait until the primary says every one listens.
    const ready =
      opts.workers === 1 ||
      readFileSync(opts.logFile, 'utf8').includes(`${opts.workers} workers listening`);
    if (ready) {
      try {
        const res = await request(port, '/api/health', {}, 2000);
        if (res.status === 200) return { child, port };
      } catch {
        // not listening yet
      }
    }
    await sleep(250);
  }
  throw new Error(
    `the app server did not answer GET /api/health with 200 ` +
      `(${child.exitCode !== null ? `exited with ${child.exitCode}` : 'timed out'}); its log:\n${tail(opts.logFile)}`,
  );
}

/** What one tick of /proc's CPU times is worth (USER_HZ is 100 on Linux). */
const MS_PER_TICK = 10;

/** CPU ticks (user + system) of a process and its children, or null where /proc cannot tell. */
function cpuTicks(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    let ticks = Number(fields[11]) + Number(fields[12]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const child of children ? children.split(' ') : []) ticks += cpuTicks(Number(child)) ?? 0;
    return ticks;
  } catch {
    return null;
  }
}

/**
 * Waits until the server has finished its start-up work (the demo seed's roll-ups and jobs):
 * under 5% of a core over 2 s, at most 90 s. Routes measured while it still ran varied up to 5x.
 */
async function waitQuiet(pid: number | undefined): Promise<void> {
  if (pid === undefined || cpuTicks(pid) === null) return;
  const ticksPerSecond = 1000 / MS_PER_TICK;
  const started = Date.now();
  while (Date.now() - started < 90_000) {
    const before = cpuTicks(pid);
    await sleep(2_000);
    const after = cpuTicks(pid);
    if (before === null || after === null) return;
    if ((after - before) / ticksPerSecond / 2 < 0.05) {
      console.log(
        `bench: the server is quiet after ${Math.round((Date.now() - started) / 1000)} s`,
      );
      return;
    }
  }
  console.log('bench: the server was still busy after 90 s; measuring anyway');
}

/** Every story id in a listV2 answer ({code, object: {stories: [{storyId}]}}), in order. */
function storyIds(value: unknown, found: (number | string)[] = []): (number | string)[] {
  if (Array.isArray(value)) {
    for (const v of value) storyIds(v, found);
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const id = obj.storyId ?? obj.story_id;
    if (typeof id === 'number' || typeof id === 'string') found.push(id);
    else for (const v of Object.values(obj)) storyIds(v, found);
  }
  return found;
}

const fmt = (n: number | null | undefined, digits = 0): string =>
  n === null || n === undefined ? '-' : n.toFixed(digits);

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === 0 || header[i] === 'notes' ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0),
      )
      .join('  ');
  console.log(line(header).trimEnd());
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row).trimEnd());
}

const dbName = (db: Db) => (db === 'pglite' ? 'PGlite' : 'PostgreSQL');
const tableTitle = (t: Pick<Table, 'db' | 'workers' | 'pinned'>) =>
  `${dbName(t.db)}, ${t.workers} server process${t.workers === 1 ? '' : 'es'}` +
  (t.pinned
    ? ' (server and bare server on CPU 1, wrk on CPU 0)'
    : t.workers > 1
      ? ' (nothing pinned: the workers share both CPUs with wrk and the bare server)'
      : ' (nothing pinned: taskset missing or one CPU)');

function printResults(t: Table): void {
  console.log(`\n${tableTitle(t)}`);
  printTable(
    [
      'route',
      'app req/s',
      'bare req/s',
      'ratio',
      'rounds',
      'body-only bare',
      'ratio to it',
      'Fastify req/s',
      'its ratio',
      'CPU ratio',
      'app µs/req',
      'bare µs/req',
      'Fastify µs/req',
      'app p99',
      'bare p99',
      'bytes',
      'notes',
    ],
    t.results.map((r) => [
      r.route,
      fmt(r.app?.rps),
      fmt(r.bare?.rps),
      r.ratio === undefined ? '-' : r.ratio.toFixed(3),
      r.ratioRange ? `${r.ratioRange[0].toFixed(2)}-${r.ratioRange[1].toFixed(2)}` : '-',
      fmt(r.bodyOnly?.rps),
      r.bodyOnlyRatio === undefined ? '-' : r.bodyOnlyRatio.toFixed(3),
      fmt(r.framework?.rps),
      r.frameworkRatio === undefined ? '-' : r.frameworkRatio.toFixed(3),
      r.cpuRatio === undefined ? '-' : r.cpuRatio.toFixed(3),
      fmt(r.app && cpuPerRequest(r.app), 1),
      fmt(r.bare && cpuPerRequest(r.bare), 1),
      fmt(r.framework && cpuPerRequest(r.framework), 1),
      r.app?.p99ms == null ? '-' : `${fmt(r.app.p99ms, 2)}ms`,
      r.bare?.p99ms == null ? '-' : `${fmt(r.bare.p99ms, 2)}ms`,
      String(r.bytes),
      [...r.problems, ...r.notes].join('; '),
    ]),
  );
}

// ------------------------------------------------------------------- build --
/** The newest modification time of the files under `dir` (skipping node_modules and dist). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return max;
}

/** Builds what is missing or older than its sources; BENCH_BUILD=1 always, 0 never. */
function ensureBuild(): boolean {
  const mode = process.env.BENCH_BUILD ?? 'auto';
  const mtime = (f: string) => (existsSync(f) ? statSync(f).mtimeMs : 0);
  const domain = newest(path.join(ROOT, 'packages/domain/src'));
  const serverStale =
    mtime(SERVER_MAIN) < Math.max(domain, newest(path.join(ROOT, 'apps/server/src')));
  // A WEB_DIST of the caller's is theirs to keep fresh; the repository's own is checked.
  const ownWeb = !process.env.WEB_DIST;
  const webIndex = path.join(WEB_DIST, 'client/index.html');
  const webStale =
    !existsSync(webIndex) ||
    (ownWeb && mtime(webIndex) < Math.max(domain, newest(path.join(ROOT, 'apps/web/src'))));
  if (mode === '0') {
    if (!existsSync(SERVER_MAIN) || !existsSync(webIndex)) {
      console.error(`bench: BENCH_BUILD=0 but ${SERVER_MAIN} or ${webIndex} is missing`);
      return false;
    }
    return true;
  }
  const script =
    mode === '1' || (webStale && ownWeb) ? 'build' : serverStale ? 'build:server' : null;
  if (!script) return true;
  if (webStale && !ownWeb) {
    console.error(`bench: WEB_DIST=${WEB_DIST} has no client/index.html`);
    return false;
  }
  console.log(
    `bench: the production build is missing or older than the sources: npm run ${script}`,
  );
  return spawnSync('npm', ['run', script], { cwd: ROOT, stdio: 'inherit' }).status === 0;
}

// ------------------------------------------------------------- one server --
/** Starts the app on one database with `workers` processes and measures every hot route. */
async function runTable(db: Db, workers: number, databaseUrl: string | null): Promise<Table> {
  const pin = workers === 1 && CAN_PIN;
  const serverCpu = pin ? 1 : null;
  const dir = mkdtempSync(path.join(tempDir!, `${db}-${workers}-`));
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  const logFile = path.join(dir, 'server.log');
  const table: Table = {
    db,
    workers,
    pinned: pin,
    storyId: null,
    episodeStoryId: null,
    results: [],
  };
  console.log(`\nbench: ${tableTitle(table)}: starting node apps/server/dist/main.js`);
  const app = await startApp({ dataDir, logFile, databaseUrl, workers, cpu: serverCpu });
  try {
    await waitQuiet(app.child.pid);
    const list = await request(app.port, '/api/v1/story/listV2/');
    let ids: (number | string)[] = [];
    try {
      ids = storyIds(JSON.parse(list.body.toString('utf8')));
    } catch {
      // no stories: the story routes are skipped below
    }
    const storyId = process.env.BENCH_STORY_ID ?? ids[0];
    table.storyId = storyId ?? null;

    // The member's token, and the first story whose first part the member may read.
    const login = await request(app.port, '/api/v1/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(MEMBER),
    });
    const token = (() => {
      try {
        const t = (JSON.parse(login.body.toString('utf8')) as { object?: { accesstoken?: string } })
          .object?.accesstoken;
        return typeof t === 'string' ? t : undefined;
      } catch {
        return undefined;
      }
    })();
    const auth = token ? { authorization: `Bearer ${token}` } : undefined;
    let episodePath: string | undefined;
    if (auth) {
      const candidates = process.env.BENCH_STORY_ID ? [process.env.BENCH_STORY_ID] : ids;
      for (const id of candidates) {
        const p = `/api/v1/story/${id}/part/number/1`;
        if ((await request(app.port, p, { headers: auth })).status === 200) {
          episodePath = p;
          table.episodeStoryId = id;
          break;
        }
      }
    }

    // The community: its feed's first page (one kept answer for everyone) and a post's page.
    const feedPath = '/api/v1/community/feed?page=1';
    const postId = await (async () => {
      try {
        const feed = await request(app.port, feedPath);
        const body = JSON.parse(feed.body.toString('utf8')) as {
          object?: { list?: { postId?: number }[] };
        };
        return body.object?.list?.[0]?.postId;
      } catch {
        return undefined;
      }
    })();

    const scriptFile = path.join(dir, 'cache-miss.lua');
    writeFileSync(scriptFile, CACHE_MISS_SCRIPT);
    const search = `/api/v1/story/search/?query=${encodeURIComponent(QUERY)}`;
    const routes: {
      route: string;
      path: string | undefined;
      missing?: string;
      headers?: Record<string, string>;
      script?: string;
    }[] = [
      {
        route: 'episode (member)',
        path: episodePath,
        missing: token ? 'no story whose part 1 the member may read' : `login ${login.status}`,
        headers: auth,
      },
      { route: 'listV2', path: '/api/v1/story/listV2/' },
      { route: 'trending', path: '/api/v1/story/list/trending/' },
      {
        route: 'preview',
        path: storyId === undefined ? undefined : `/api/v1/story/${storyId}/preview/`,
      },
      { route: 'search cached', path: search },
      { route: 'details SSR', path: storyId === undefined ? undefined : `/details/${storyId}/` },
      { route: 'home SSR', path: '/' },
      { route: 'community feed', path: feedPath },
      {
        route: 'post SSR',
        path: postId === undefined ? undefined : `/community/post/${postId}`,
        missing: 'no post in the community feed',
      },
      // Last: the database is still working off its queue of searches for a while after wrk
      // stops, which would slow whatever route came next.
      { route: 'search', path: search, script: scriptFile },
    ];

    for (const { route, path: urlPath, missing, headers, script } of routes) {
      if (!urlPath) {
        table.results.push({
          route,
          path: '-',
          status: 0,
          contentType: '',
          bytes: 0,
          problems: [missing ?? 'no story id'],
          notes: [],
        });
        continue;
      }
      const first = await request(app.port, urlPath, { headers });
      const contentType = String(first.headers['content-type'] ?? '');
      const r: RouteResult = {
        route,
        path: urlPath,
        status: first.status,
        contentType,
        bytes: first.body.length,
        problems: [],
        notes: [],
      };
      table.results.push(r);
      if (first.status !== 200) {
        r.problems.push(`status ${first.status}`);
        console.log(`  ${route.padEnd(16)} ${urlPath}: status ${first.status}, skipped`);
        continue;
      }
      if (first.headers['content-encoding'])
        r.notes.push(`content-encoding ${first.headers['content-encoding']}`);
      const load: Load = { headers, script, pin };
      process.stdout.write(`  ${route.padEnd(16)} ${urlPath} (${first.body.length} B)...`);
      const bodyFile = path.join(dir, `body-${table.results.length}`);
      writeFileSync(bodyFile, first.body);
      const bares: { child: ChildProcess; port: number }[] = [];
      try {
        for (const bodyOnly of [false, true])
          bares.push(await startBare(bodyFile, bareHeaders(first, bodyOnly), serverCpu));
        bares.push(
          await startBare(bodyFile, bareHeaders(first, false), serverCpu, FRAMEWORK_SERVER),
        );
        const [appRounds, bareRounds, bodyOnlyRounds, frameworkRounds] = await measureInTurn(
          [
            { port: app.port, pid: app.child.pid },
            ...bares.map((b) => ({ port: b.port, pid: b.child.pid })),
          ],
          urlPath,
          load,
        );
        r.app = merged(appRounds!);
        r.bare = merged(bareRounds!);
        r.bodyOnly = merged(bodyOnlyRounds!);
        r.ratio = pairedRatio(appRounds!, bareRounds!);
        r.ratioRange = ratioRange(appRounds!, bareRounds!);
        r.bodyOnlyRatio = pairedRatio(appRounds!, bodyOnlyRounds!);
        r.framework = merged(frameworkRounds!);
        r.frameworkRatio = pairedRatio(frameworkRounds!, bareRounds!);
        r.cpuRatio = cpuRatio(r.app, r.bare);
      } finally {
        for (const bare of bares) await stopChild(bare.child, 10_000);
      }
      console.log(
        ` app ${fmt(r.app.rps)} req/s, bare ${fmt(r.bare.rps)} (body only ${fmt(r.bodyOnly.rps)},` +
          ` Fastify ${fmt(r.framework.rps)})`,
      );
      const failed = r.app.non2xx - r.app.shed;
      if (failed) r.problems.push(`${failed} non-2xx answers under load`);
      if (r.app.shed) r.notes.push(`${r.app.shed} shed with 503 past capacity, left out of req/s`);
      if (r.app.socketErrors) r.problems.push(`${r.app.socketErrors} socket errors`);
    }
  } finally {
    await stopChild(app.child, 30_000);
  }
  printResults(table);
  return table;
}

/** A database of its own on the PostgreSQL server DATABASE_URL names. */
async function createDatabase(baseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Inside with-postgres.sh: one table per process count, each on a fresh database. */
async function postgresPass(workerCounts: number[]): Promise<Table[]> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('the PostgreSQL pass needs DATABASE_URL (scripts/with-postgres.sh)');
  const tables: Table[] = [];
  for (const workers of workerCounts) {
    const url = await createDatabase(base, `kathamala_bench_w${workers}`);
    tables.push(await runTable('postgres', workers, url));
  }
  return tables;
}

/** Runs this script again inside scripts/with-postgres.sh and reads its tables back. */
async function postgresViaScript(): Promise<Table[]> {
  const out = path.join(tempDir!, 'postgres.json');
  const child = track(
    spawn(
      'bash',
      [
        'scripts/with-postgres.sh',
        process.execPath,
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, BENCH_PG_CHILD_OUT: out, BENCH_BUILD: '0' },
        stdio: 'inherit',
        detached: true,
      },
    ),
  );
  postgresGroup = child;
  const [code] = (await once(child, 'exit')) as [number | null];
  if (!existsSync(out)) throw new Error(`the PostgreSQL pass failed (exit ${code})`);
  return JSON.parse(readFileSync(out, 'utf8')) as Table[];
}

function parseWorkers(): number[] {
  const list = (process.env.BENCH_WORKERS ?? '1,2')
    .split(',')
    .map((s) => Number.parseInt(s.trim(), 10))
    .filter((n) => Number.isInteger(n) && n >= 1);
  return list.length > 0 ? [...new Set(list)] : [1];
}

// -------------------------------------------------------------------- main --
async function main(): Promise<number> {
  const workerCounts = parseWorkers();
  tempDir = mkdtempSync(path.join(os.tmpdir(), 'kathamala-bench-'));
  if (PG_CHILD_OUT) {
    const tables = await postgresPass(workerCounts);
    writeFileSync(PG_CHILD_OUT, JSON.stringify(tables));
    return 0;
  }

  const hasPostgres = existsSync(path.join(PG_BIN, 'initdb'));
  const which = process.env.BENCH_DB ?? (hasPostgres ? 'both' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(which)) {
    console.error(`bench: BENCH_DB must be pglite, postgres or both, got '${which}'`);
    return 1;
  }
  if (which !== 'pglite' && !hasPostgres) {
    console.error(`bench: BENCH_DB=${which} needs PostgreSQL 15 (${PG_BIN}/initdb not found)`);
    return 1;
  }
  const deps = spawnSync('bash', [path.join(ROOT, 'scripts/ensure-system-deps.sh')], {
    stdio: 'inherit',
  });
  if (deps.status !== 0) return 1;
  if (!ensureBuild()) return 1;

  const loadBefore = os.loadavg();
  console.log(
    `bench: wrk -t1 -c${CONNECTIONS}, a ${WARMUP_S}s warm-up each, then ${ROUNDS} rounds of ` +
      `${DURATION_S}s in turn (app, bare, body-only bare, Fastify); ` +
      `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; ${os.cpus().length} CPUs` +
      (CAN_PIN ? '' : '; taskset missing or one CPU: nothing pinned'),
  );
  const tables: Table[] = [];
  if (which !== 'postgres') tables.push(await runTable('pglite', 1, null));
  if (which !== 'pglite') tables.push(...(await postgresViaScript()));
  const loadAfter = os.loadavg();

  // Tables again, together, and PostgreSQL's process counts side by side.
  console.log('\n================ results ================');
  for (const t of tables) printResults(t);
  const pgTables = tables.filter((t) => t.db === 'postgres').sort((a, b) => a.workers - b.workers);
  if (pgTables.length > 1) {
    const [one, ...more] = pgTables;
    console.log(`\nPostgreSQL: app req/s by server processes (growth against ${one!.workers})`);
    printTable(
      [
        'route',
        ...pgTables.map((t) => `${t.workers} proc${t.workers === 1 ? '' : 's'}`),
        ...more.map((t) => `x${t.workers}/${one!.workers}`),
      ],
      one!.results.map((r, i) => {
        const rps = pgTables.map((t) => t.results[i]?.app?.rps);
        const base = rps[0];
        return [
          r.route,
          ...rps.map((v) => fmt(v)),
          ...rps.slice(1).map((v) => (v && base ? (v / base).toFixed(2) : '-')),
        ];
      }),
    );
  }
  console.log(
    `\nratio = app req/s / bare node:http req/s (same bytes: headers and body), the median of ${ROUNDS} rounds run in turn; ` +
      `its ratio = Fastify with @fastify/rate-limit alone, sending the same bytes, over the same bare server: the ceiling of an app on them; ` +
      `CPU ratio = the bare server's CPU time per request / the app's (its process and children, from /proc; ` +
      `PostgreSQL's own time not counted), over all rounds: what an answer costs, whatever CPU the host left each round; ` +
      `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ` +
      `${loadAfter.map((l) => l.toFixed(2)).join(' ')} after; written to .tmp/bench.json`,
  );

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    loadAverage: { before: loadBefore, after: loadAfter },
    wrk: {
      threads: 1,
      connections: CONNECTIONS,
      roundS: DURATION_S,
      rounds: ROUNDS,
      warmupS: WARMUP_S,
    },
    pinning: CAN_PIN
      ? 'one process: server and bare server taskset -c 1, wrk taskset -c 0; several: none'
      : 'none',
    tables,
  };
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(path.join(ROOT, '.tmp/bench.json'), JSON.stringify(report, null, 2) + '\n');

  const bad = tables.flatMap((t) =>
    t.results
      .filter((r) => r.problems.length > 0)
      .map((r) => `${r.route} (${tableTitle(t).split(' (')[0]})`),
  );
  if (bad.length > 0) {
    console.error(`bench: problems on ${bad.join(', ')} (see notes)`);
    return 1;
  }
  return 0;
}

main()
  .then((code) => {
    killAllNow();
    process.exit(code);
  })
  .catch((err: unknown) => {
    console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
    killAllNow();
    process.exit(1);
  });
