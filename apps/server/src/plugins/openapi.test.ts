import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { BEARER, operationIdOf } from './openapi.ts';

let t: TestApp;
let doc: OpenAPIV3.Document;
const operations: { method: string; path: string; op: OpenAPIV3.OperationObject }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item ?? {}))
      if (op && typeof op === 'object' && 'responses' in op)
        operations.push({ method, path, op: op as OpenAPIV3.OperationObject });
}, 120_000);
afterAll(() => t.close());

const CARRIER_WEBHOOK = '/api/v1/carrier/notify/';
/** The document's path as a request path: each {param} a 1 (a number fits every route's). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '1');
const needsToken = (op: OpenAPIV3.OperationObject) =>
  !!op.security?.length && op.security.every((s) => BEARER in s);
const takesToken = (op: OpenAPIV3.OperationObject) => !!op.security?.some((s) => BEARER in s);

describe('the OpenAPI document at /api/docs', () => {
  it('declares the bearer scheme', () => {
    expect(doc.components?.securitySchemes?.[BEARER]).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(operations.length).toBeGreaterThan(40);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    for (const { method, path, op } of operations)
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      operations.find((o) => o.path === '/api/v1/story/{id}/part/number/{n}')?.op.operationId,
    ).toBe('getStoryPartNumber');
  });

  it('names the token on every call that takes one, required where the server requires it', async () => {
    const protectedOnes = operations.filter(({ op }) => needsToken(op));
    expect(protectedOnes.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'get /api/v1/story/{id}/part/number/{n}',
        'get /api/v1/member/details/',
        'post /api/v1/story/rate/{id}/',
        'get /api/v1/firebase/notifications/',
      ]),
    );
    // What the document says is what the server does: without a token, a call documented as
    // needing one is 401, and no other call is.
    for (const { method, path, op } of operations) {
      const res = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url: concrete(path),
        ...(op.requestBody ? { payload: {} } : {}),
      });
      const label = `${method} ${path}: ${res.statusCode} ${res.body.slice(0, 120)}`;
      if (needsToken(op)) expect(res.statusCode, label).toBe(401);
      // The carrier's webhook answers 401 to a notification that is not signed (its own).
      else if (path !== CARRIER_WEBHOOK) expect(res.statusCode, label).not.toBe(401);
    }
    // Site files and the carrier's signed webhook take no reader's token.
    for (const path of ['/healthz', CARRIER_WEBHOOK])
      for (const o of operations.filter((x) => x.path === path))
        expect(takesToken(o.op), path).toBe(false);
  });

  it('lists the failures each call can answer', () => {
    for (const { method, path, op } of operations) {
      const label = `${method} ${path}`;
      const codes = Object.keys(op.responses);
      expect(
        codes.some((c) => /^4\d\d$/.test(c)),
        label,
      ).toBe(true);
      expect(
        codes.some((c) => /^[23]\d\d$/.test(c)),
        label,
      ).toBe(true);
      expect(codes, label).toContain('400');
      if (takesToken(op)) expect(codes, label).toContain('401');
      // The carrier (one address sending many) and health checks are not rate-limited.
      if (![CARRIER_WEBHOOK, '/healthz'].includes(path)) expect(codes, label).toContain('429');
      if (op.requestBody) expect(codes, label).toContain('413');
      expect(op.description, label).toBeTruthy();
    }
    // Every tag used is declared.
    const declared = new Set((doc.tags ?? []).map((tag) => tag.name));
    for (const { op } of operations)
      for (const tag of op.tags ?? []) expect(declared).toContain(tag);
  });
});

describe('operationIdOf', () => {
  it.each([
    ['GET', '/api/v1/story/listV2/', 'getStoryListV2'],
    ['POST', '/api/v1/story/comment/reply/', 'postStoryCommentReply'],
    ['GET', '/api/v1/story/comment/reply/:commentId/list/', 'getStoryCommentReplyList'],
    ['POST', '/api/v1/member/mail/one-click/', 'postMemberMailOneClick'],
    ['GET', '/.well-known/jwks.json', 'getWellKnownJwksJson'],
  ])('%s %s -> %s', (method, url, id) => expect(operationIdOf(method, url)).toBe(id));
});
