import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

/** More values than any body we accept holds; past it the walk stops. */
const MAX_VISITS = 100_000;

/** What one walk found: a key holding a number that is not finite, or text holding NUL. */
type Finding = { nonFinite: string } | { nul: true } | null;

/**
 * One walk over `values` (without recursion, so a 5,000-deep body cannot overflow the stack)
 * looking for a number that overflowed to Infinity and for a string holding NUL (U+0000).
 * `key` names the property a non-finite number sits in (an array's items take the array's).
 */
function inspect(values: unknown): Finding {
  if (values === null || typeof values !== 'object') return null;
  const stack: unknown[] = [values];
  const keys: string[] = [''];
  let visits = 0;
  while (stack.length > 0 && visits++ < MAX_VISITS) {
    const value = stack.pop();
    const key = keys.pop() ?? '';
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'string') {
          if (item.includes('\u0000')) return { nul: true };
        } else if (typeof item === 'number') {
          if (!Number.isFinite(item)) return { nonFinite: key };
        } else if (item !== null && typeof item === 'object') {
          stack.push(item);
          keys.push(key);
        }
      }
    } else if (value !== null && typeof value === 'object') {
      // for...in over own keys: no array of entries made per object on every request.
      for (const name in value) {
        if (!Object.hasOwn(value, name)) continue;
        const item = (value as Record<string, unknown>)[name];
        if (typeof item === 'string') {
          if (item.includes('\u0000')) return { nul: true };
        } else if (typeof item === 'number') {
          if (!Number.isFinite(item)) return { nonFinite: name };
        } else if (item !== null && typeof item === 'object') {
          stack.push(item);
          keys.push(name);
        }
      }
    }
  }
  return null;
}

/** The first problem in a request's path, query and body, in that order. */
export function findUnfitInput(params: unknown, query: unknown, body: unknown): Finding {
  return inspect(params) ?? inspect(query) ?? inspect(body);
}

/**
 * Refuses, before any handler runs, two kinds of input that would otherwise fail as a 500:
 * - numbers that overflowed to Infinity ('1e309' in a path or query, 1e309 in JSON): Ajv
 *   coerces them and then skips minimum/maximum for non-finite values, so they would reach
 *   the database;
 * - text holding a NUL character (U+0000): PostgreSQL cannot store it in a text column. No
 *   person types one.
 * One walk over params, query and body per request, after validation (which coerces).
 */
export function installInputHygiene(app: FastifyInstance) {
  // A plain callback: it runs on every request, and a promise per request buys nothing here.
  app.addHook('preHandler', (request, _reply, done) => {
    const found = findUnfitInput(request.params, request.query, request.body);
    if (!found) return done();
    if ('nul' in found)
      // The sentence the comment rules already use for the same refusal.
      return done(invalid('The text contains characters that are not allowed.'));
    done(invalid(`'${found.nonFinite}' must be a whole number of a sensible size.`));
  });
}
