// npm run soak:fuzz: hostile input for longer than npm test runs it, at random.
//
// Builds the real app (PGlite in memory, or a fresh database on DATABASE_URL's PostgreSQL),
// reads its OpenAPI document and, for FUZZ_SECONDS (default 60), sends random hostile requests
// to every route (malformed paths, queries, bodies, content types, tokens: the generators of
// apps/server/src/test/fuzz-cases.ts, mixed at random) through app.inject, and every tenth
// turn a random broken HTTP message over a socket to the listening server (oversized or
// malformed headers, request lines, chunked bodies, random bytes). FUZZ_SEED picks the run
// (printed, so a failure can be replayed). Prints the counts per status, the 5xx and the 4xx
// answers that are not JSON {code, message}, the first problems with the request that caused
// them; figures also in .tmp/soak-fuzz.json. Exit status 0 only with no problem.
// runFuzz is also run by index.ts (npm run soak) after the load and crash runs.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../../apps/server/src/test/helpers.ts';
import {
  operationsOf,
  problemWith,
  randomCase,
  seeded,
  type Rng,
  keepTokensLive,
  type Tokens,
} from '../../apps/server/src/test/fuzz-cases.ts';
import { envInt, isEntry, onCleanup, runAlone } from './common.ts';

/** What one run measured; index.ts prints it with the load and crash runs'. */
export interface FuzzFigures {
  database: string;
  seed: number;
  seconds: number;
  operations: number;
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  raw: { requests: number; statuses: Record<string, number> };
  fiveXX: number;
  badShape: number;
  problems: string[];
  ok: boolean;
  at: string;
}

/** Broken HTTP messages, each made fresh from the generator. */
const brokenMessages: ((rng: Rng) => string | Buffer)[] = [
  (rng) =>
    `GET /api/v1/story/listV2/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000 + rng.int(50_000))}\r\n\r\n`,
  (rng) =>
    `GET / HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 200 + rng.int(2_000) }, (_, i) => `X-H${i}: ${'v'.repeat(rng.int(200))}\r\n`).join('')}\r\n`,
  () => 'GARBAGE\r\n\r\n',
  (rng) => Buffer.from(Array.from({ length: 1 + rng.int(400) }, () => rng.int(256))),
  (rng) =>
    `GET /api/v1/story/${String.fromCharCode(rng.int(32))}/preview/ HTTP/1.1\r\nHost: x\r\n\r\n`,
  () => 'GET /api/v1/story/listV2/ HTTP/1.1\r\nHost x\r\n\r\n',
  () => 'GET /api/v1/story/listV2/ HTTP/9.9\r\nHost: x\r\n\r\n',
  () => 'POST /api/v1/user/login HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
  () =>
    'POST /api/v1/user/login HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  () =>
    'POST /api/v1/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  () => 'GET /api/v1/story/%ZZ/preview/ HTTP/1.1\r\nHost: x\r\n\r\n',
  (rng) =>
    `GET /api/v1/story/${'9'.repeat(201 + rng.int(5_000))}/preview/ HTTP/1.1\r\nHost: x\r\n\r\n`,
  () => 'GET /api/v1/story/listV2/ HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
];

/** Sends raw bytes; answers the status, content type and body, or status 0 when it closed silently. */
function raw(port: number, bytes: string | Buffer) {
  return new Promise<{ status: number; type: string; body: string }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const type = /\r\ncontent-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '';
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? -1);
      const body = rest.join('\r\n\r\n');
      resolve({ status, type, body: length >= 0 ? body.slice(0, length) : body });
    };
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', done);
    socket.write(bytes);
    setTimeout(() => socket.end(), 200);
  });
}

/** Fuzzes the real app (in this process) for FUZZ_SECONDS and answers the figures. */
export async function runFuzz(): Promise<FuzzFigures> {
  const SECONDS = envInt('FUZZ_SECONDS', 60);
  const SEED = envInt('FUZZ_SEED', Date.now() % 1_000_000);
  /** Ports of this run's server (4431-4440 are the fuzzer's); 0 lets the system choose. */
  const PORT = envInt('FUZZ_PORT', 4431);
  const t = await createTestApp({ DEMO_SEED: '0' });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await t.close();
  };
  onCleanup(close);
  try {
    await t.app.listen({ port: PORT, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const ops = operationsOf(
      (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Parameters<
        typeof operationsOf
      >[0],
    );
    const tokens = {} as Tokens;
    const keepLive = () => keepTokensLive(t, tokens);
    await keepLive();
    const storyId = await t.createStory(tokens.author);
    await t.publishEpisode(tokens.author, storyId);

    console.log(
      `soak:fuzz: ${ops.length} operations, ${SECONDS} s, seed ${SEED} (FUZZ_SEED=${SEED} replays it)`,
    );
    const rng = seeded(SEED);
    const statuses: Record<string, number> = {};
    const rawStatuses: Record<string, number> = {};
    const problems: string[] = [];
    let requests = 0;
    let rawRequests = 0;
    let fiveXX = 0;
    let badShape = 0;
    const until = Date.now() + SECONDS * 1000;
    const started = Date.now();
    while (Date.now() < until) {
      if (requests % 100 === 0) await keepLive();
      if (requests % 10 === 9) {
        const bytes = rng.pick(brokenMessages)(rng);
        const res = await raw(port, bytes);
        rawRequests++;
        rawStatuses[res.status] = (rawStatuses[res.status] ?? 0) + 1;
        // A connection closed without an answer is allowed only for random bytes that never
        // formed a request; anything answered must be {code, message} JSON and not a 5xx.
        if (res.status !== 0) {
          const problem = problemWith(
            { method: 'GET' },
            { ...res, headers: { 'content-type': res.type }, statusCode: res.status },
          );
          if (problem) {
            if (res.status >= 500) fiveXX++;
            else badShape++;
            if (problems.length < 20)
              problems.push(
                `raw ${String(bytes)
                  .slice(0, 60)
                  .replace(/[\r\n]+/g, ' ')}: ${problem}`,
              );
          }
        }
      }
      const req = randomCase(ops, tokens, rng);
      const res = await t.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: req.headers,
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
      });
      requests++;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const problem = problemWith(req, res);
      if (problem) {
        if (res.statusCode >= 500) fiveXX++;
        else badShape++;
        if (problems.length < 20) problems.push(`${req.label.slice(0, 200)}: ${problem}`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    return {
      database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      seed: SEED,
      seconds: Math.round(seconds),
      operations: ops.length,
      requests,
      perSecond: Math.round(requests / seconds),
      statuses,
      raw: { requests: rawRequests, statuses: rawStatuses },
      fiveXX,
      badShape,
      problems,
      ok: fiveXX === 0 && badShape === 0,
      at: new Date().toISOString(),
    };
  } finally {
    await close();
  }
}

/** Prints the figures as the issue names them. */
export function printFuzz(f: FuzzFigures) {
  console.log(`
Hostile input (${f.seconds} s, ${f.database}, seed ${f.seed}: FUZZ_SEED=${f.seed} replays it)
  requests        ${f.requests} (${f.perSecond}/s) over ${f.operations} operations
  by status       ${JSON.stringify(f.statuses)}
  raw HTTP        ${f.raw.requests} messages; by status ${JSON.stringify(f.raw.statuses)} (0: closed without an answer)
  5xx             ${f.fiveXX}
  4xx not {code, message}  ${f.badShape}${f.problems.map((p) => `\n    ${p}`).join('')}
  ${f.ok ? 'PASS' : 'FAIL'}`);
}

if (isEntry(import.meta.url)) await runAlone('soak-fuzz', runFuzz, printFuzz);
