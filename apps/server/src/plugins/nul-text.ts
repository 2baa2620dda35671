import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

/** More values than any body we accept holds; past it the walk stops. */
const MAX_VISITS = 100_000;

/** Whether any string in `values` holds a NUL character, walking without recursion. */
function holdsNul(values: unknown): boolean {
  const stack: unknown[] = [values];
  let visits = 0;
  while (stack.length && visits++ < MAX_VISITS) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value && typeof value === 'object') {
      stack.push(...Object.values(value));
    }
  }
  return false;
}

/**
 * Refuses text holding a NUL character (U+0000) in a path, query or body: PostgreSQL cannot
 * store it in a text column and would fail the query as a 500. No person types one. Walking
 * without recursion keeps a 5,000-deep body from overflowing the stack.
 */
export function installNulText(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    if ([request.params, request.query, request.body].some(holdsNul))
      // The sentence the comment rules already use for the same refusal.
      throw invalid('The text contains characters that are not allowed.');
  });
}
