/**
 * npx tsx scripts/audio-bench.ts: the audio numbers of issue 29, in one run.
 *
 * 1. Streaming: the server (apps/server/src/main.ts on PGlite in a temporary DATA_DIR, demo
 *    local disk storage) streams a 50 MB track (an author's story made through the API, then a
 *    ready track of 50 MiB put on it) to 100 connections making Range requests of 256 KiB at random offsets, as players
 *    fetch; a bare node:http server (in a child process) streams the same file with
 *    fs.createReadStream and the same headers. autocannon drives both: a warm-up each, then
 *    rounds in turn (every other round in reverse order, so noise on a shared host falls on
 *    both sides); the ratio is the median of the rounds' req/s ratios. The server's RSS is
 *    sampled every 250 ms from /proc: idle before the load, then every second of it, and the
 *    peak, which must stay within 50 MB of idle.
 *    The stream route's own limit (per track and listener) is raised for the run
 *    (AUDIO_STREAM_PER_MINUTE): 100 connections from one address here are one listener.
 * 2. Saver bytes: a 20-minute speech-like clip (espeak-ng narration looped with a little
 *    noise) through the server's processing (renderRenditions); prints both renditions' bytes.
 *    The saver one must be at most 4 MB.
 *
 * Environment: AUDIO_BENCH_SECONDS (per round, default 5), AUDIO_BENCH_ROUNDS (default 4),
 * AUDIO_BENCH_PORT (default 3341; the bare server takes the next one), AUDIO_BENCH_STREAM=0 or
 * AUDIO_BENCH_SAVER=0 to skip a part.
 *
 * Reading it: both servers allocate a new Buffer per 64 KiB read (fs streams do), and V8 starts
 * a full mark when about 64 MB of such external memory has come and gone. In the app that marks
 * a heap of ~76 MB (PGlite, caches, schemas) for 100-400 ms every second or two under this load
 * (node --trace-gc); the bare server's heap is a few MB. That, not the framework's per-request
 * work, is most of the gap, and the RSS that rises and falls with the load.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { findFfmpeg, renderRenditions } from '../apps/server/src/modules/audio/ffmpeg.ts';
import { stopChild } from './stop-child.ts';

/** What this script reads of autocannon's answer (the package ships no types). */
interface AutocannonResult {
  requests: { average: number };
  throughput: { average: number };
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: Record<string, unknown>,
) => Promise<AutocannonResult>;

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.AUDIO_BENCH_SECONDS) || 5;
const ROUNDS = Number(process.env.AUDIO_BENCH_ROUNDS) || 4;
const PORT = Number(process.env.AUDIO_BENCH_PORT) || 3341;
const BARE_PORT = PORT + 1;
const TRACK_BYTES = 50 * 1024 * 1024;
const RANGE_BYTES = 256 * 1024;
const CONNECTIONS = 100;
const MB = 1024 * 1024;

const children: ChildProcess[] = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssOf = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};

async function waitFor(url: string, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer`);
}

/** The server from source on Node (tsx as a loader), in its own process. */
function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DEMO_SEED: '0',
      CARRIER_SIMULATOR: '1',
      AUDIO_STREAM_PER_MINUTE: '100000000',
      // As `npm run serve` and the Docker image run it: glibc keeps two malloc arenas instead of
      // one per threadpool thread reading the file, which otherwise hold tens of MB (docs/operations.md).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      PRESSURE_MAX_IN_FLIGHT: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

/** The bare server: node:http, range-parser, fs.createReadStream, the app's headers. */
const BARE = `
import http from 'node:http';
import fs from 'node:fs';
import { createRequire } from 'node:module';
const rangeParser = createRequire(${JSON.stringify(path.join(root, 'package.json'))})('range-parser');
const [file, port, etag, lastModified] = process.argv.slice(2);
const size = fs.statSync(file).size;
http.createServer((req, res) => {
  const headers = {
    'accept-ranges': 'bytes', etag, 'last-modified': lastModified,
    'cache-control': 'public, max-age=31536000, immutable', 'content-type': 'audio/mp4',
  };
  const parsed = req.headers.range ? rangeParser(size, req.headers.range, { combine: true }) : -2;
  if (parsed === -1) {
    res.writeHead(416, { ...headers, 'content-range': 'bytes */' + size });
    return res.end();
  }
  const range = parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1 ? parsed[0] : null;
  if (range) {
    res.writeHead(206, { ...headers, 'content-range': 'bytes ' + range.start + '-' + range.end + '/' + size,
      'content-length': range.end - range.start + 1 });
  } else res.writeHead(200, { ...headers, 'content-length': size });
  fs.createReadStream(file, range ?? {}).pipe(res);
}).listen(Number(port), '127.0.0.1');
`;

/** One autocannon run of `seconds` against `url`, each request a random 256 KiB range. */
async function load(url: string, seconds: number) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (req: { headers?: Record<string, string> }) => {
          const start = Math.floor(Math.random() * (TRACK_BYTES - RANGE_BYTES));
          return {
            ...req,
            headers: { ...req.headers, range: `bytes=${start}-${start + RANGE_BYTES - 1}` },
          };
        },
      },
    ],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0)
    throw new Error(
      `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  return {
    rps: result.requests.average,
    mbps: result.throughput.average / MB,
    p99: result.latency.p99,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function streaming() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-bench-'));
  try {
    // A first start makes the database and, through the API, an author with a story; then a
    // ready track of 50 MiB is put on it, as the processing job would leave it.
    let server = startServer(dataDir);
    const api = `http://127.0.0.1:${PORT}`;
    await waitFor(`${api}/healthz`);
    const post = async (url: string, body: object, token?: string) => {
      const res = await fetch(`${api}${url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { object: Record<string, string> & { storyId: number } })
        .object;
    };
    const reader = await post('/api/v1/user/signup', {
      email: 'bench@example.com',
      password: 'correct horse battery',
      username: 'Bench narrator',
    });
    const author = await post(
      '/api/v1/author/register/',
      { name: 'Bench Narrator' },
      reader.accesstoken,
    );
    const { storyId } = await post(
      '/api/v1/author/publish/story/webapp',
      {
        story: {
          title: 'A long narration',
          description: 'Fifty megabytes of it.',
          language: 'english',
          kind: 0,
          category: 'mystery',
          membersOnly: false,
          ongoing: true,
        },
      },
      author.accesstoken,
    );
    await stopChild(server, 20_000);
    const prefix = randomBytes(12).toString('hex');
    const file = path.join(dataDir, 'objects/audio', prefix, 'standard.m4a');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(TRACK_BYTES));
    const database = await openDatabase({
      databaseUrl: null,
      pgliteDir: path.join(dataDir, 'pglite'),
    });
    await database.db
      .execute(sql`insert into audio_tracks (story_id, title, position, status, prefix,
      duration_seconds, standard_bytes, saver_bytes)
      values (${storyId}, 'Fifty megabytes', 1, 'ready', ${prefix}, 6553, ${TRACK_BYTES}, 0)`);
    await database.close();

    server = startServer(dataDir);
    const url = `http://127.0.0.1:${PORT}/api/v1/audio/stream/${prefix}?quality=standard`;
    await waitFor(`http://127.0.0.1:${PORT}/healthz`);
    const head = await fetch(url, { method: 'HEAD' });
    if (Number(head.headers.get('content-length')) !== TRACK_BYTES)
      throw new Error('the 50 MB track is not in place');
    const bareFile = path.join(dataDir, 'bare.mjs');
    fs.writeFileSync(bareFile, BARE);
    const bare = spawn(
      process.execPath,
      [
        bareFile,
        file,
        String(BARE_PORT),
        head.headers.get('etag')!,
        head.headers.get('last-modified')!,
      ],
      { stdio: 'inherit' },
    );
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${BARE_PORT}/`;
    await waitFor(bareUrl);

    // Idle: the server after its start-up work, sampled for 3 s.
    await sleep(3000);
    const idleSamples: number[] = [];
    for (let i = 0; i < 12; i++) {
      idleSamples.push(rssOf(server.pid!));
      await sleep(250);
    }
    const idle = median(idleSamples);
    const started = Date.now();
    const samples: { at: number; rss: number }[] = [];
    const bareIdle = rssOf(bare.pid!);
    let barePeak = bareIdle;
    const sampler = setInterval(() => {
      samples.push({ at: Date.now() - started, rss: rssOf(server.pid!) });
      barePeak = Math.max(barePeak, rssOf(bare.pid!));
    }, 250);

    await load(url, 2);
    await load(bareUrl, 2);
    const rounds: {
      app: Awaited<ReturnType<typeof load>>;
      bare: Awaited<ReturnType<typeof load>>;
    }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        const app = await load(url, SECONDS);
        rounds.push({ app, bare: await load(bareUrl, SECONDS) });
      } else {
        const b = await load(bareUrl, SECONDS);
        rounds.push({ app: await load(url, SECONDS), bare: b });
      }
      const last = rounds.at(-1)!;
      console.log(
        `round ${r + 1}: app ${last.app.rps.toFixed(0)} req/s (${last.app.mbps.toFixed(0)} MB/s, p99 ${last.app.p99} ms), bare ${last.bare.rps.toFixed(0)} req/s (${last.bare.mbps.toFixed(0)} MB/s, p99 ${last.bare.p99} ms), ratio ${(last.app.rps / last.bare.rps).toFixed(2)}`,
      );
    }
    clearInterval(sampler);
    const ratios = rounds.map((r) => r.app.rps / r.bare.rps);
    const peak = Math.max(...samples.map((s) => s.rss));
    console.log('\nserver RSS over the run (MB, one line a second):');
    for (let s = 0; s < samples.length; s += 4)
      console.log(
        `  t=${(samples[s]!.at / 1000).toFixed(0).padStart(3)} s  ${(samples[s]!.rss / MB).toFixed(1)}`,
      );
    console.log(
      `\nstreaming 50 MB with ${CONNECTIONS} connections of 256 KiB ranges: app / bare node:http = ${median(ratios).toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}); app ${median(rounds.map((r) => r.app.rps)).toFixed(0)} req/s, bare ${median(rounds.map((r) => r.bare.rps)).toFixed(0)} req/s`,
    );
    const grew = (peak - idle) / MB;
    // After the warm-up: what the first load brought in for good (compiled code, V8's young
    // generation grown to its working size) is no longer "idle" growth.
    const warm = samples.find((x) => x.at >= 4000)?.rss ?? idle;
    console.log(
      `server RSS after the 4 s warm-up ${(warm / MB).toFixed(1)} MB: peak is +${((peak - warm) / MB).toFixed(1)} MB over it; the bare server: idle ${(bareIdle / MB).toFixed(1)} MB, peak ${(barePeak / MB).toFixed(1)} MB (+${((barePeak - bareIdle) / MB).toFixed(1)} MB)`,
    );
    console.log(
      `server RSS: idle ${(idle / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB, +${grew.toFixed(1)} MB (limit +50 MB): ${grew <= 50 ? 'ok' : 'OVER'}`,
    );
    await stopChild(server, 20_000);
    bare.kill('SIGKILL');
    return { ratio: median(ratios), idleMb: idle / MB, peakMb: peak / MB };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function saverBytes() {
  const tools = findFfmpeg();
  if (!tools) throw new Error('ffmpeg is not installed: apt-get install -y ffmpeg espeak-ng');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-bench-saver-'));
  try {
    const speech = path.join(dir, 'speech.wav');
    execFileSync('espeak-ng', [
      '-s',
      '150',
      '-w',
      speech,
      'Nadeesha had not been to Akmeemana in eleven years, and the road had forgotten her. Where there had once been a red gravel track between the paddy fields there was now tarmac, a pharmacy, a shop selling mobile phone covers and a signboard for a boutique hotel. The three-wheeler driver slowed at the last bend as if he, too, was unsure. She saw it then, above the wet green of the fields: the long, low house her grandfather had built, its half-round tiles pitched as steep as a pair of praying hands, its verandah running the whole length of the front.',
    ]);
    // Twenty minutes: the narration looped, over a quiet room's noise (a studio is never silent).
    const clip = path.join(dir, 'twenty-minutes.wav');
    execFileSync(tools.ffmpeg, [
      '-v',
      'error',
      '-y',
      '-stream_loop',
      '-1',
      '-i',
      speech,
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:amplitude=0.003:sample_rate=22050',
      '-filter_complex',
      '[0:a][1:a]amix=inputs=2:duration=first:normalize=0',
      '-t',
      '1200',
      clip,
    ]);
    const started = Date.now();
    const made = await renderRenditions(tools, clip, dir);
    console.log(
      `\n20-minute episode (${made.saver.durationSeconds.toFixed(0)} s, processed in ${((Date.now() - started) / 1000).toFixed(0)} s): saver ${(made.saver.bytes / 1e6).toFixed(2)} MB (limit 4 MB: ${made.saver.bytes <= 4e6 ? 'ok' : 'OVER'}), standard ${(made.standard.bytes / 1e6).toFixed(2)} MB`,
    );
    return made.saver.bytes;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// AUDIO_BENCH_STREAM=0 skips the streaming part.
if (process.env.AUDIO_BENCH_STREAM !== '0') await streaming();
// AUDIO_BENCH_SAVER=0 skips the 20-minute render (minutes of ffmpeg on a small machine).
if (process.env.AUDIO_BENCH_SAVER !== '0') await saverBytes();
cleanup();
