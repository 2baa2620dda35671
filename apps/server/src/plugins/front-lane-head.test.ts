import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, expect, it } from 'vitest';
import { Head, RATE_HEADERS } from './front-lane.ts';

// A kept head skips writeHead's per-call checks by handing node its own header map. What goes
// on the wire must be what writeHead with a list sends, byte for byte, whichever way it went.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** The raw bytes (head and body) a server sends for one GET, Date line removed. */
async function wire(answer: (res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((_req, res) => answer(res));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  let text = '';
  socket.setEncoding('latin1');
  for await (const chunk of socket) {
    text += chunk as string;
    if (text.endsWith('body!')) break;
  }
  socket.destroy();
  return text.replace(/^Date: .*\r\n/m, '');
}

const LIST = [
  'content-type',
  'application/json; charset=utf-8',
  'Content-Security-Policy',
  "default-src 'self'",
  'vary',
  'accept-encoding',
];
const rate = { exceeded: false, max: 600, remaining: 42, resetSeconds: 17 };

it('goes out as writeHead with a list would send it, through node’s map or through setHeader', async () => {
  const expected = await wire((res) => {
    res.writeHead(200, [
      ...LIST,
      'x-ratelimit-limit',
      600,
      'x-ratelimit-remaining',
      42,
      'x-ratelimit-reset',
      17,
      'content-length',
      5,
    ]);
    res.end('body!');
  });
  expect(expected).toContain('x-ratelimit-remaining: 42\r\n');
  const listed: Record<string, string> = {};
  for (let i = 0; i < LIST.length; i += 2) listed[LIST[i]!] = LIST[i + 1]!;
  const head = Head.of({ ...listed, ...RATE_HEADERS, 'content-length': 0 });

  const viaMap = await wire((res) => {
    head.write(res, 200, rate, 5);
    res.end('body!');
  });
  expect(viaMap).toBe(expected);

  const viaSetHeader = await wire((res) => {
    head.writeTo(res, 200, undefined);
    res.end('body!');
  });
  expect(viaSetHeader).toBe(expected);
});

it('carries each request’s own budget, though the head is shared', async () => {
  const head = Head.of({ 'content-type': 'text/plain', ...RATE_HEADERS, 'content-length': 0 });
  const first = await wire((res) => {
    head.write(res, 200, { ...rate, remaining: 9 }, 5);
    res.end('body!');
  });
  const second = await wire((res) => {
    head.write(res, 200, { ...rate, remaining: 8 }, 5);
    res.end('body!');
  });
  expect(first).toContain('x-ratelimit-remaining: 9\r\n');
  expect(second).toContain('x-ratelimit-remaining: 8\r\n');
});

it('refuses a header node would refuse, when the head is made rather than on every request', () => {
  expect(() => Head.of({ 'x-bad': 'one\r\ntwo' })).toThrow();
  expect(() => Head.of({ 'bad name': 'x' })).toThrow();
});
