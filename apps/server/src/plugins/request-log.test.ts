import http from 'node:http';
import type { AddressInfo } from 'node:net';
import compress from '@fastify/compress';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HANGUP_MESSAGE, LineBatch, installRequestLog, serverLogger } from './request-log.ts';

/** A writer that keeps what it is handed, as sonic-boom would write it; `lines` parses them. */
function sink() {
  const chunks: string[] = [];
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { chunks, lines, write: (chunk: string) => (chunks.push(chunk), true) };
}

describe('request log batching', () => {
  it('hands lines on in order, in one write per batch, and keeps none back on flush', () => {
    const out = sink();
    const batch = new LineBatch(out);
    const logger = pino({ level: 'info' }, batch);
    for (let i = 0; i < 1200; i++)
      logger.info({ method: 'GET', url: `/r/${i}`, status: 200 }, 'request');
    // 1,200 lines of ~120 characters: about two full batches went out, the rest waits.
    expect(out.chunks.length).toBeGreaterThanOrEqual(1);
    expect(out.chunks.length).toBeLessThan(10);
    batch.flush();
    const lines = out.chunks.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1200);
    expect(lines.map((l) => JSON.parse(l).url)).toEqual(
      Array.from({ length: 1200 }, (_, i) => `/r/${i}`),
    );
    const written = out.chunks.length;
    batch.flush();
    expect(out.chunks).toHaveLength(written);
  });

  it('writes a lone line on flush, Sinhala intact', () => {
    const out = sink();
    const batch = new LineBatch(out);
    pino({ level: 'info' }, batch).info({ q: 'ශ්‍රී ලංකා' }, 'search');
    expect(out.chunks).toHaveLength(0);
    batch.flush();
    expect(JSON.parse(out.chunks[0]!).q).toBe('ශ්‍රී ලංකා');
  });

  it('writes a request line as pino writes a request line, field for field', () => {
    const out = sink();
    const url = '/api/v1/story/search/?query=%E0%B6%BA "x"\\';
    pino({ level: 'info' }, out).info({ method: 'GET', url, status: 304, ms: 0.4 }, 'request');
    const batch = new LineBatch(out);
    batch.request('GET', url, 304, 0.4);
    expect(out.chunks).toHaveLength(1); // kept until the batch is written
    batch.flush();
    const [fromPino, fromBatch] = out.chunks.map((line) => {
      expect(line.endsWith('\n')).toBe(true);
      const { time, ...rest } = JSON.parse(line);
      expect(Math.abs(time - Date.now())).toBeLessThan(5_000);
      return rest;
    });
    expect(Object.keys(fromBatch)).toEqual(Object.keys(fromPino));
    expect(fromBatch).toEqual(fromPino);
  });

  it("writes a request line as pino's text, whatever the time taken, a URL seen again alike", () => {
    const url = '/api/v1/story/listV2/?q="ශ්‍රී"\\';
    for (const ms of [0, 0.4, 3, 12.5, 99.9, 1234.7, 1e6 + 0.1]) {
      const out = sink();
      const log = pino({ level: 'info' }, out);
      const batch = new LineBatch(out);
      for (let seen = 0; seen < 2; seen++) {
        log.info({ method: 'GET', url, status: 200, ms }, 'request');
        batch.request('GET', url, 200, ms);
        batch.flush();
      }
      const withoutTime = out.chunks.map((line) => line.replace(/"time":\d+,/, ''));
      expect(withoutTime).toHaveLength(4);
      for (const line of withoutTime) expect(line).toBe(withoutTime[0]);
    }
  });

  it('keeps request lines and the others in the order they happened', () => {
    const out = sink();
    const batch = new LineBatch(out);
    const logger = pino({ level: 'info' }, batch);
    const expected: string[] = [];
    for (let i = 0; i < 1200; i++) {
      batch.request('GET', `/story/${i}`, 200, i / 10);
      expected.push(`/story/${i}`);
      if (i % 7 === 0) {
        logger.info({ method: 'POST', url: `/fastify/${i}`, status: 201 }, 'request');
        expected.push(`/fastify/${i}`);
      }
    }
    // Full batches went out as they filled, not one write per line.
    expect(out.chunks.length).toBeGreaterThanOrEqual(1);
    expect(out.chunks.length).toBeLessThan(10);
    batch.flush();
    const lines = out.chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.url)).toEqual(expected);
    expect(lines[3]).toMatchObject({ method: 'GET', url: '/story/2', status: 200, ms: 0.2 });
    const written = out.chunks.length;
    batch.flush();
    expect(out.chunks).toHaveLength(written);
  });
});

describe('a client that hangs up mid-answer', () => {
  /** The server's own logger and compression, as app.ts puts them together. */
  async function server() {
    const out = sink();
    const log = serverLogger(out);
    const app = Fastify({
      loggerInstance: log.logger,
      logController: new LogController({ disableRequestLogging: true }),
    });
    installRequestLog(app, log.requestLine);
    await app.register(compress, { threshold: 1024 });
    // Large enough that the answer is still being compressed and sent when the client goes.
    const big = Array.from({ length: 200_000 }, (_, i) => `line ${i} ${(i * 7919) % 104729}`);
    app.get('/big', async (_req, reply) => reply.type('text/plain').send(big.join('\n')));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const lines = async (): Promise<Record<string, unknown>[]> => {
      await app.close();
      log.flush();
      return out.lines();
    };
    return { port: (app.server.address() as AddressInfo).port, lines };
  }

  /** Asks for the big answer and closes the connection at its first bytes. */
  const hangUp = (port: number) =>
    new Promise<void>((resolve) => {
      const req = http.get(
        { port, host: '127.0.0.1', path: '/big', headers: { 'accept-encoding': 'gzip' } },
        (res) => res.once('data', () => (req.destroy(), setTimeout(resolve, 200))),
      );
      req.on('error', () => {});
    });

  it('is not logged as an error, nor with a stack', async () => {
    const { port, lines } = await server();
    await hangUp(port);
    const logged = await lines();
    const loud = logged.filter((l) => (l.level as number) >= 40);
    expect(loud, JSON.stringify(loud).slice(0, 500)).toEqual([]);
    expect(JSON.stringify(logged)).not.toMatch(/premature close|"stack"/i);
    // @fastify/compress 9 keeps a hang-up to itself; any stream that reports one says it once.
    expect(logged.filter((l) => l.msg === HANGUP_MESSAGE).length).toBeLessThanOrEqual(1);
  });

  it('turns a premature close of a stream, logged as an error, into one info line', () => {
    const out = sink();
    const log = serverLogger(out);
    const closed = Object.assign(new Error('Premature close'), {
      code: 'ERR_STREAM_PREMATURE_CLOSE',
    });
    log.logger.child({ reqId: 'req-1' }).error(closed);
    log.logger.error({ err: new Error('premature close') });
    log.flush();
    const logged = out.lines();
    expect(logged).toHaveLength(2);
    for (const l of logged) expect(l).toMatchObject({ level: 30, msg: HANGUP_MESSAGE });
    expect(logged[0]).toMatchObject({ reqId: 'req-1' });
    expect(JSON.stringify(logged)).not.toMatch(/"stack"/);
  });

  it('still logs a real error with its stack', () => {
    const out = sink();
    const log = serverLogger(out);
    log.logger.error({ err: new Error('the database went away') }, 'unhandled error');
    log.logger.error(new Error('premature close of something else, in a sentence'));
    log.flush();
    const logged = out.lines();
    expect(logged).toHaveLength(2);
    for (const l of logged) {
      expect(l.level).toBe(50);
      expect(l.err.stack).toMatch(/^Error: /);
    }
  });
});
