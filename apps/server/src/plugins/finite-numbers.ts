import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.ts';

/** The first key whose value is a number that is not finite, looking one level into arrays. */
function nonFiniteKey(values: unknown): string | null {
  if (!values || typeof values !== 'object') return null;
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'number' && !Number.isFinite(value)) return key;
    if (Array.isArray(value) && value.some((v) => typeof v === 'number' && !Number.isFinite(v)))
      return key;
  }
  return null;
}

/**
 * Refuses numbers that overflowed to Infinity ('1e309' in a path or query, 1e309 in JSON).
 * Ajv coerces them and then skips minimum/maximum for non-finite values, so they would
 * otherwise reach the database and fail there as a 500.
 */
export function installFiniteNumbers(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    const key =
      nonFiniteKey(request.params) ?? nonFiniteKey(request.query) ?? nonFiniteKey(request.body);
    if (key) throw invalid(`'${key}' must be a whole number of a sensible size.`);
  });
}
