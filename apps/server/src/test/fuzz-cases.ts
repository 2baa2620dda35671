// Hostile requests made from the OpenAPI document, shared by the seeded fuzz test
// (apps/server/src/test/fuzz.test.ts) and the longer random run (scripts/soak/fuzz.ts).
// Each request is a plain inject() description, so both run them through app.inject; the
// Node-level client errors (431, a broken request line) need a socket and are tested apart.

import { bearer, type TestApp } from './helpers.ts';

/** One operation of the OpenAPI document, as much of it as the fuzzer needs. */
export interface FuzzOp {
  method: string;
  /** The OpenAPI path, e.g. /api/v1/story/{id}/preview/. */
  path: string;
  pathParams: { name: string; schema: Schema }[];
  queryParams: { name: string; schema: Schema }[];
  /** The JSON body's schema, or null when the operation takes none. */
  body: Schema | null;
}

/** The subset of JSON Schema the routes' TypeBox schemas use. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  format?: string;
}

/** A request to send with app.inject. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was done to the request, printed when the answer is wrong. */
  label: string;
}

/** Who sends a request: nobody, a reader, an author, or a token that is not one. */
export type Caller = 'visitor' | 'reader' | 'author' | 'garbage';

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: Schema }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
}

/** Every operation of the document (GET /api/docs/json), in the document's order. */
export function operationsOf(doc: OpenApiDoc): FuzzOp[] {
  const ops: FuzzOp[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const pick = (where: string) =>
        params.filter((p) => p.in === where).map((p) => ({ name: p.name, schema: p.schema ?? {} }));
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: pick('path'),
        queryParams: pick('query'),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return ops;
}

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
export function seeded(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Rng = ReturnType<typeof seeded>;

/** Values for a path segment, already percent-encoded where a client would have to. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '0',
  '-1',
  '-0',
  '+1',
  '1.5',
  '1e3',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x10',
  '2147483648',
  '99999999999999999999999999',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '%20',
  '%00',
  '1%00',
  '%ZZ',
  '%',
  '%C0%AF',
  '%F0%9F%98',
  '..',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2F',
  encodeURIComponent('ශ්‍රී ලංකා'),
  encodeURIComponent('😀'),
  encodeURIComponent("1' or '1'='1"),
  encodeURIComponent('1;drop table users'),
  encodeURIComponent('<script>alert(1)</script>'),
  'a'.repeat(199),
  '9'.repeat(201),
  'x'.repeat(5000),
  '[]',
  '%7B%7D',
];

/** Values for a query parameter (the raw text after `name=`). */
export const HOSTILE_QUERY_VALUES: readonly string[] = [
  '',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '2147483648',
  '99999999999999999999999',
  'abc',
  'true',
  'null',
  '%00',
  '%ZZ',
  encodeURIComponent('ශ්‍රී'),
  encodeURIComponent('😀'.repeat(50)),
  'x'.repeat(10_000),
  encodeURIComponent("' or 1=1 --"),
  '%5B%5D',
];

/** Whole query strings that are hostile in shape rather than value. */
export const HOSTILE_QUERIES: readonly string[] = [
  'unknown=1',
  '__proto__[admin]=1',
  '__proto__=1',
  'constructor[prototype][admin]=1',
  'a[b][c][d][e][f]=1',
  '&&&&=&=',
  '=',
  '%00=%00',
  'x=' + 'y'.repeat(60_000),
  Array.from({ length: 2_000 }, (_, i) => `k${i}=${i}`).join('&'),
];

/** A value that fits the schema, as far as a fuzzer can tell. */
export function sample(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length) return sample(choice[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(schema.properties ?? {}))
        out[key] = sample(value, depth + 1);
      return out;
    }
    case 'array':
      return [sample(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return null;
  }
}

/** Values a field may be set to instead of its own. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  -1,
  0,
  1.5,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'NaN',
  '1e309',
  '\u0000',
  'broken \uD800 half',
  '\u202Eevil',
  '../../etc/passwd',
  'ශ්‍රී ලංකා',
  '😀'.repeat(300),
  'x'.repeat(70_000),
  true,
  [],
  [1, 2, 3],
  {},
];

/** Nested arrays (or objects) `depth` deep, as JSON text. */
export const nested = (depth: number, kind: 'array' | 'object' = 'array'): string =>
  kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** JSON texts whose shape is wrong for any body, or that are not JSON. */
const HOSTILE_BODIES: readonly string[] = [
  '',
  '{',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  'null',
  'true',
  '0',
  '1e309',
  '"text"',
  '[]',
  '[{}]',
  '{}',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":1,"a":2}',
  nested(5_000),
  nested(5_000, 'object'),
  '"' + 'x'.repeat(80_000) + '"',
  '[' + '1,'.repeat(30_000) + '1]',
];

const CONTENT_TYPES: readonly (string | null)[] = [
  null,
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json, text/plain',
  'application/jsonx',
  ';;;',
];

/** Authorization headers that carry no valid token. */
export const HOSTILE_AUTH: readonly string[] = [
  'Bearer',
  'Bearer ',
  'Bearer x',
  'Bearer a.b.c',
  'Bearer eyJhbGciOiJub25lIn0.e30.',
  'Basic dXNlcjpwYXNz',
  'bearer ' + 'A'.repeat(8_000),
  'Bearer x y',
  'Token abc',
];

/** The URL of `op` with each path parameter set to a value that fits, or to `over`. */
function urlOf(op: FuzzOp, over: Record<string, string> = {}, query = ''): string {
  let url = op.path;
  for (const p of op.pathParams) {
    const value = over[p.name] ?? String(sample(p.schema) ?? '1');
    url = url.replace(`{${p.name}}`, value);
  }
  return query ? `${url}?${query}` : url;
}

/** A body that fits the schema, as JSON text (or undefined when the operation takes none). */
const goodBody = (op: FuzzOp): string | undefined =>
  op.body ? JSON.stringify(sample(op.body)) : undefined;

/** Tokens by caller; the test keeps them live. */
export type Tokens = Record<'reader' | 'author', string>;

/** Logged-in callers stay logged in: a fuzzed logout or refresh may have ended a session. */
export async function keepTokensLive(t: TestApp, tokens: Tokens): Promise<void> {
  const live = async (token: string | undefined) =>
    !!token &&
    (await t.app.inject({ method: 'GET', url: '/api/v1/user/me', headers: bearer(token) }))
      .statusCode === 200;
  if (!(await live(tokens.reader))) tokens.reader = await t.signup('Fuzz reader');
  if (!(await live(tokens.author))) tokens.author = (await t.newAuthor('Fuzz')).token;
}

const authHeader = (caller: Caller, tokens: Tokens, rng?: Rng): Record<string, string> =>
  caller === 'visitor'
    ? {}
    : caller === 'garbage'
      ? { authorization: rng ? rng.pick(HOSTILE_AUTH) : HOSTILE_AUTH[0]! }
      : { authorization: `Bearer ${tokens[caller]}` };

/** The request with a JSON body and the headers of `caller`. */
function request(
  op: FuzzOp,
  caller: Caller,
  tokens: Tokens,
  label: string,
  parts: { url?: string; payload?: string; contentType?: string | null; rng?: Rng } = {},
): FuzzRequest {
  const payload = 'payload' in parts ? parts.payload : goodBody(op);
  const contentType =
    parts.contentType === undefined
      ? payload !== undefined
        ? 'application/json'
        : null
      : parts.contentType;
  return {
    method: op.method,
    url: parts.url ?? urlOf(op),
    headers: {
      ...authHeader(caller, tokens, parts.rng),
      ...(contentType ? { 'content-type': contentType } : {}),
    },
    ...(payload !== undefined ? { payload } : {}),
    label: `${op.method} ${op.path} as ${caller}: ${label}`,
  };
}

/** The body with top-level field `key` set to `value` (written as raw JSON text). */
function withField(op: FuzzOp, key: string, raw: string): string {
  const body = sample(op.body ?? undefined) as Record<string, unknown>;
  const rest = Object.entries(body)
    .filter(([k]) => k !== key)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${[...rest, `${JSON.stringify(key)}:${raw}`].join(',')}}`;
}

const rawOf = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** The fields of the body, nested ones as dotted paths are left to the random run. */
const fieldsOf = (op: FuzzOp): string[] => Object.keys(op.body?.properties ?? {});

/**
 * Every hostile request for `op`, deterministic: each path parameter with each hostile segment,
 * each query parameter with each hostile value, hostile query shapes, hostile bodies and content
 * types, each body field with each hostile value, and callers rotating through visitor, reader,
 * author and a garbage token so every kind meets every route.
 */
export function casesFor(op: FuzzOp, tokens: Tokens): FuzzRequest[] {
  const callers: Caller[] = ['visitor', 'reader', 'author', 'garbage'];
  let n = 0;
  const caller = () => callers[n++ % callers.length]!;
  const out: FuzzRequest[] = [];
  for (const p of op.pathParams)
    for (const seg of HOSTILE_SEGMENTS)
      out.push(
        request(op, caller(), tokens, `path ${p.name}=${seg.slice(0, 40)}`, {
          url: urlOf(op, { [p.name]: seg }),
        }),
      );
  for (const q of op.queryParams) {
    for (const value of HOSTILE_QUERY_VALUES)
      out.push(
        request(op, caller(), tokens, `query ${q.name}=${value.slice(0, 40)}`, {
          url: urlOf(op, {}, `${q.name}=${value}`),
        }),
      );
    out.push(
      request(op, caller(), tokens, `query ${q.name} twice`, {
        url: urlOf(op, {}, `${q.name}=1&${q.name}=2&${q.name}[]=3`),
      }),
    );
  }
  for (const query of HOSTILE_QUERIES)
    out.push(
      request(op, caller(), tokens, `query ${query.slice(0, 40)}`, { url: urlOf(op, {}, query) }),
    );
  // An operation without a body meets a few bodies only: its route never parses more.
  const bodies = op.body ? HOSTILE_BODIES : HOSTILE_BODIES.filter((_, i) => i % 4 === 0);
  for (const payload of bodies)
    out.push(
      request(op, caller(), tokens, `body ${payload.slice(0, 40)}`, {
        payload,
        contentType: 'application/json',
      }),
    );
  const types = op.body ? CONTENT_TYPES : CONTENT_TYPES.filter((_, i) => i % 3 === 0);
  for (const contentType of types)
    out.push(
      request(op, caller(), tokens, `content-type ${contentType ?? 'none'}`, {
        payload: goodBody(op) ?? '{}',
        contentType,
      }),
    );
  for (const [f, key] of fieldsOf(op).entries()) {
    // Each field meets half the values, alternating, so neighbouring fields share the rest
    // (the random run meets them all); keeps the test in npm test bounded.
    for (const value of HOSTILE_VALUES.filter((_, i) => i % 2 === f % 2))
      out.push(
        request(op, caller(), tokens, `field ${key}=${rawOf(value).slice(0, 40)}`, {
          payload: withField(op, key, rawOf(value)),
        }),
      );
    for (const raw of [
      '1e309',
      '-1e309',
      nested(2_000),
      nested(2_000, 'object'),
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
    ])
      out.push(
        request(op, caller(), tokens, `field ${key}=${raw.slice(0, 20)}`, {
          payload: withField(op, key, raw),
        }),
      );
  }
  // Methods the path does not take, and a page's Accept on an API address.
  for (const method of ['PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE'])
    if (method !== op.method) out.push({ ...request(op, caller(), tokens, 'method'), method });
  out.push({
    ...request(op, caller(), tokens, 'accept html'),
    headers: { ...request(op, 'visitor', tokens, '').headers, accept: 'text/html' },
  });
  for (const auth of HOSTILE_AUTH)
    out.push({
      ...request(op, 'visitor', tokens, `authorization ${auth.slice(0, 30)}`),
      headers: {
        ...request(op, 'visitor', tokens, '').headers,
        authorization: auth,
      },
    });
  return out;
}

/** One random hostile request: any mix of path, query, body, content type and caller. */
export function randomCase(ops: readonly FuzzOp[], tokens: Tokens, rng: Rng): FuzzRequest {
  const op = rng.pick(ops);
  const caller = rng.pick<Caller>(['visitor', 'reader', 'author', 'garbage']);
  const over: Record<string, string> = {};
  for (const p of op.pathParams) if (rng.next() < 0.6) over[p.name] = rng.pick(HOSTILE_SEGMENTS);
  const query: string[] = [];
  for (const q of op.queryParams)
    if (rng.next() < 0.5) query.push(`${q.name}=${rng.pick(HOSTILE_QUERY_VALUES)}`);
  if (rng.next() < 0.2) query.push(rng.pick(HOSTILE_QUERIES));
  let payload = goodBody(op);
  const roll = rng.next();
  if (roll < 0.25) payload = rng.pick(HOSTILE_BODIES);
  else if (roll < 0.7 && op.body) {
    const keys = fieldsOf(op);
    if (keys.length) {
      const value =
        rng.next() < 0.1 ? rng.pick(['1e309', nested(1_000)]) : rawOf(rng.pick(HOSTILE_VALUES));
      payload = withField(op, rng.pick(keys), value);
    }
  }
  const contentType =
    rng.next() < 0.15 ? rng.pick(CONTENT_TYPES) : payload !== undefined ? 'application/json' : null;
  const method = rng.next() < 0.05 ? rng.pick(['PUT', 'PATCH', 'OPTIONS', 'HEAD']) : op.method;
  const req = request(op, caller, tokens, 'random', {
    url: urlOf(op, over, query.join('&')),
    payload,
    contentType,
    rng,
  });
  return {
    ...req,
    method,
    label: `${method} ${req.url.slice(0, 120)} as ${caller} (${contentType ?? 'no type'}, body ${(payload ?? '').slice(0, 60)})`,
  };
}

/** What is wrong with an answer to a hostile request, or null when it is fine. */
export function problemWith(
  req: Pick<FuzzRequest, 'method'>,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): string | null {
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 200)}`;
  if (res.statusCode < 400 || req.method === 'HEAD') return null;
  const type = String(res.headers['content-type'] ?? '');
  if (!type.includes('application/json'))
    return `answered ${res.statusCode} as ${type || 'no content type'}, not JSON`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `answered ${res.statusCode} with a body that is not JSON: ${res.body.slice(0, 200)}`;
  }
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
  if (!Number.isInteger(code) || (code as number) < 1 || typeof message !== 'string' || !message)
    return `answered ${res.statusCode} without {code, message}: ${res.body.slice(0, 200)}`;
  if (/FST_|Error:|stack|at \w+ \(/.test(message))
    return `answered ${res.statusCode} with internals in the message: ${message.slice(0, 200)}`;
  return null;
}
