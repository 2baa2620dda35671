// npm run bench: the hot routes as a ratio to a bare node:http server that
// sends the same bytes, measured in the same run on the same machine.
//
// 1. starts the real server (NODE_ENV=production, PGlite in a temporary
//    DATA_DIR, DEMO_SEED=1) on a free loopback port and waits for /api/health;
// 2. for each hot route fetches the body and content-type once (no
//    Accept-Encoding, as wrk sends none), then starts a bare node:http server in
//    a child process answering exactly those bytes;
// 3. runs wrk (-t1 -c32, a 2 s warm-up then 8 s) against both and prints
//    route, app req/s, bare req/s, ratio (app / bare) and the app's p99 latency.
// Results also go to .tmp/bench.json. Loopback only; every child is killed at
// the end, on error, on Ctrl-C and when the overall time limit fires.
//
// Environment: BENCH_DURATION (s, default 8), BENCH_WARMUP (s, 2),
// BENCH_CONNECTIONS (32), BENCH_QUERY (monsoon), BENCH_TIMEOUT (s, 600),
// BENCH_STORY_ID (default: the first story of listV2), RATE_LIMIT_MAX (passed to
// the server, default 1000000, the most config.ts accepts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const envInt = (name: string, fallback: number): number => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const DURATION_S = envInt('BENCH_DURATION', 8);
const WARMUP_S = envInt('BENCH_WARMUP', 2);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const TIMEOUT_S = envInt('BENCH_TIMEOUT', 600);
const QUERY = process.env.BENCH_QUERY ?? 'monsoon';

interface WrkResult {
  rps: number;
  p50ms: number | null;
  p99ms: number | null;
  requests: number;
  non2xx: number;
  socketErrors: number;
}
interface RouteResult {
  route: string;
  path: string;
  status: number;
  contentType: string;
  bytes: number;
  app?: WrkResult;
  bare?: WrkResult;
  ratio?: number;
  problems: string[];
}

// ---------------------------------------------------------------- children --
const children = new Set<ChildProcess>();
let tempDir: string | undefined;

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stop(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function killAllNow(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
  body: Buffer;
}

/** A plain GET without Accept-Encoding: the bytes wrk will receive. */
function get(port: number, urlPath: string, timeoutMs = 15_000): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: HOST, port, path: urlPath, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${urlPath} timed out`)));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  return {
    rps: Number.parseFloat(rps[1]),
    p50ms: pct('50'),
    p99ms: pct('99'),
    requests: requests?.[1] ? Number(requests[1]) : 0,
    non2xx: non2xx?.[1] ? Number(non2xx[1]) : 0,
    socketErrors: sock ? sock.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
  };
}

async function wrk(url: string, seconds: number): Promise<WrkResult> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '--timeout', '5s', url];
  const child = track(spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${out}`);
  return parseWrk(out);
}

async function measure(port: number, urlPath: string): Promise<WrkResult> {
  const url = `http://${HOST}:${port}${urlPath}`;
  await wrk(url, WARMUP_S);
  return wrk(url, DURATION_S);
}

const BARE_SERVER = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.env.BENCH_BODY_FILE);
const headers = { 'content-length': body.length };
if (process.env.BENCH_CONTENT_TYPE) headers['content-type'] = process.env.BENCH_CONTENT_TYPE;
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.on('SIGTERM', () => process.exit(0));
`;

async function startBare(
  bodyFile: string,
  contentType: string,
): Promise<{ child: ChildProcess; port: number }> {
  const child = track(
    spawn(process.execPath, ['-e', BARE_SERVER], {
      env: { ...process.env, BENCH_BODY_FILE: bodyFile, BENCH_CONTENT_TYPE: contentType },
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

async function startApp(
  dataDir: string,
  logFile: string,
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST,
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO_SEED: '1',
    // One client hammers the server: lift the per-IP limit to its ceiling
    // (1M/min) so wrk measures the routes, not 429s. Overridable.
    RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX ?? '1000000',
  };
  delete env.DATABASE_URL; // PGlite in the temporary DATA_DIR, never the caller's database
  const log = openSync(logFile, 'a');
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', log, log],
    }),
  );
  const started = Date.now();
  while (Date.now() - started < 120_000) {
    if (child.exitCode !== null) break;
    try {
      const res = await get(port, '/api/health', 2000);
      if (res.status === 200) return { child, port };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  const tail = existsSync(logFile)
    ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n')
    : '';
  throw new Error(
    `the app server did not answer GET /api/health with 200 ` +
      `(${child.exitCode !== null ? `exited with ${child.exitCode}` : 'timed out'}); its log:\n${tail}`,
  );
}

/** The first story id in a listV2 answer ({code, object: {stories: [{storyId}]}}). */
function findStoryId(value: unknown): number | string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const id = findStoryId(v);
      if (id !== undefined) return id;
    }
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const id = obj.storyId ?? obj.story_id;
    if (typeof id === 'number' || typeof id === 'string') return id;
    for (const v of Object.values(obj)) {
      const found = findStoryId(v);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const fmt = (n: number | null | undefined, digits = 0): string =>
  n === null || n === undefined ? '-' : n.toFixed(digits);

// -------------------------------------------------------------------- main --
async function main(): Promise<number> {
  if (!existsSync(path.join(ROOT, 'apps/server/src/main.ts'))) {
    console.error('bench: apps/server/src/main.ts does not exist yet');
    return 1;
  }
  const deps = spawnSync('bash', [path.join(ROOT, 'scripts/ensure-system-deps.sh')], {
    stdio: 'inherit',
  });
  if (deps.status !== 0) return 1;
  if (!existsSync(path.join(ROOT, 'apps/web/dist'))) {
    console.log('bench: apps/web/dist missing, running npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) return 1;
  }

  tempDir = mkdtempSync(path.join(os.tmpdir(), 'kathamala-bench-'));
  const dataDir = path.join(tempDir, 'data');
  mkdirSync(dataDir);
  const logFile = path.join(tempDir, 'server.log');
  console.log(`bench: starting the app server (NODE_ENV=production, PGlite in ${dataDir})`);
  const app = await startApp(dataDir, logFile);
  console.log(
    `bench: app on ${HOST}:${app.port}; wrk -t1 -c${CONNECTIONS} -d${DURATION_S}s after a ${WARMUP_S}s warm-up`,
  );

  let storyId: number | string | undefined = process.env.BENCH_STORY_ID;
  if (storyId === undefined) {
    const list = await get(app.port, '/api/v1/story/listV2/');
    try {
      storyId = findStoryId(JSON.parse(list.body.toString('utf8')));
    } catch {
      storyId = undefined;
    }
  }
  if (storyId === undefined)
    console.error('bench: no story id found in listV2; skipping the story routes');

  const routes: { route: string; path: string | undefined }[] = [
    { route: 'listV2', path: '/api/v1/story/listV2/' },
    { route: 'trending', path: '/api/v1/story/list/trending/' },
    {
      route: 'preview',
      path: storyId === undefined ? undefined : `/api/v1/story/${storyId}/preview/`,
    },
    { route: 'search', path: `/api/v1/story/search/?query=${encodeURIComponent(QUERY)}` },
    { route: 'details SSR', path: storyId === undefined ? undefined : `/details/${storyId}/` },
    { route: 'home SSR', path: '/' },
  ];

  const results: RouteResult[] = [];
  for (const { route, path: urlPath } of routes) {
    if (!urlPath) {
      results.push({
        route,
        path: '-',
        status: 0,
        contentType: '',
        bytes: 0,
        problems: ['no story id'],
      });
      continue;
    }
    const first = await get(app.port, urlPath);
    const contentType = String(first.headers['content-type'] ?? '');
    const r: RouteResult = {
      route,
      path: urlPath,
      status: first.status,
      contentType,
      bytes: first.body.length,
      problems: [],
    };
    results.push(r);
    if (first.status !== 200) {
      r.problems.push(`status ${first.status}`);
      console.log(`  ${route.padEnd(12)} ${urlPath}: status ${first.status}, skipped`);
      continue;
    }
    if (first.headers['content-encoding'])
      r.problems.push(`content-encoding ${first.headers['content-encoding']}`);

    process.stdout.write(`  ${route.padEnd(12)} ${urlPath} (${first.body.length} B) app...`);
    r.app = await measure(app.port, urlPath);
    process.stdout.write(` ${fmt(r.app.rps)} req/s, bare...`);
    const bodyFile = path.join(tempDir, `body-${results.length}`);
    writeFileSync(bodyFile, first.body);
    const bare = await startBare(bodyFile, contentType);
    try {
      r.bare = await measure(bare.port, urlPath);
    } finally {
      await stop(bare.child);
    }
    console.log(` ${fmt(r.bare.rps)} req/s`);
    r.ratio = r.bare.rps > 0 ? Math.round((r.app.rps / r.bare.rps) * 1000) / 1000 : undefined;
    if (r.app.non2xx) r.problems.push(`${r.app.non2xx} non-2xx answers under load`);
    if (r.app.socketErrors) r.problems.push(`${r.app.socketErrors} socket errors`);
  }
  await stop(app.child);

  const header = [
    'route',
    'app req/s',
    'bare req/s',
    'ratio',
    'app p99',
    'bare p99',
    'bytes',
    'notes',
  ];
  const rows = results.map((r) => [
    r.route,
    fmt(r.app?.rps),
    fmt(r.bare?.rps),
    r.ratio === undefined ? '-' : r.ratio.toFixed(2),
    r.app?.p99ms == null ? '-' : `${fmt(r.app.p99ms, 2)}ms`,
    r.bare?.p99ms == null ? '-' : `${fmt(r.bare.p99ms, 2)}ms`,
    String(r.bytes),
    r.problems.join('; '),
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === 0 || i === cells.length - 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0),
      )
      .join('  ');
  console.log('');
  console.log(line(header).trimEnd());
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row).trimEnd());

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    wrk: { threads: 1, connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S },
    storyId: storyId ?? null,
    results,
  };
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(path.join(ROOT, '.tmp/bench.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(
    `\nratio = app req/s / bare node:http req/s (same bytes, same run); written to .tmp/bench.json`,
  );

  const bad = results.filter((r) => r.problems.some((p) => !p.startsWith('content-encoding')));
  if (bad.length > 0) {
    console.error(`bench: problems on ${bad.map((r) => r.route).join(', ')} (see notes)`);
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
