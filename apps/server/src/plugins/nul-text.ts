import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

/** Deeper than any body we accept; past it the walk stops (the schema has refused it anyway). */
const MAX_VISITS = 100_000;

/** The first key (or 'The request') whose text holds a NUL character, walking without recursion. */
function nulKey(values: unknown): string | null {
  const stack: [string, unknown][] = [['', values]];
  let visits = 0;
  while (stack.length && visits++ < MAX_VISITS) {
    const [key, value] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return key;
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) stack.push([Array.isArray(value) ? key : k, v]);
    }
  }
  return null;
}

/**
 * Refuses text holding a NUL character (U+0000) in a path, query or body: PostgreSQL cannot
 * store it in a text column and would fail the query as a 500. No person types one.
 */
export function installNulText(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const key = nulKey(part);
      if (key !== null)
        throw invalid(
          `${key ? `'${key}'` : 'The request'} contains a character that is not allowed.`,
        );
    }
  });
}
