import { CarrierError } from './types.ts';
import { STATUS_SUCCESS } from './wire.ts';

/** Where the carrier is and how we prove who we are. */
export interface CarrierEndpoint {
  /** The carrier's API root, without a trailing slash. */
  baseUrl: string;
  /** Ideamart's per-application password (one for all our apps). */
  password: string;
  /** A call slower than this is a failure (CarrierError). */
  timeoutMs?: number;
}

/** A carrier answer: its statusCode and the rest of its fields. */
export type CarrierAnswer = Record<string, unknown> & { statusCode: string };

/**
 * POSTs `body` (plus applicationId and password) to `{baseUrl}{path}` and answers the parsed
 * reply. A network error, a timeout, a non-2xx answer or one that is not JSON with a statusCode
 * throws CarrierError; `accept` lists non-success status codes the caller handles itself.
 */
export async function callCarrier(
  endpoint: CarrierEndpoint,
  path: string,
  body: Record<string, unknown> & { applicationId: string },
  accept: readonly string[] = [],
): Promise<CarrierAnswer> {
  let res: Response;
  try {
    res = await fetch(`${endpoint.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...body, password: endpoint.password }),
      signal: AbortSignal.timeout(endpoint.timeoutMs ?? 10_000),
    });
  } catch (e) {
    throw new CarrierError(`The carrier could not be reached (${path}): ${(e as Error).message}`);
  }
  let answer: unknown;
  try {
    answer = await res.json();
  } catch {
    throw new CarrierError(`The carrier answered ${path} with HTTP ${res.status} and no JSON.`);
  }
  if (!res.ok) throw new CarrierError(`The carrier answered ${path} with HTTP ${res.status}.`);
  const statusCode = (answer as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode !== 'string')
    throw new CarrierError(`The carrier's answer to ${path} has no statusCode.`);
  if (statusCode !== STATUS_SUCCESS && !accept.includes(statusCode)) {
    const detail = (answer as { statusDetail?: unknown }).statusDetail;
    throw new CarrierError(
      `The carrier refused ${path}: ${statusCode}${typeof detail === 'string' ? ` (${detail})` : ''}.`,
    );
  }
  return answer as CarrierAnswer;
}
