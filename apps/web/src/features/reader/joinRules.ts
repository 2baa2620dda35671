import { carrierOf, MEMBERSHIP, ResultCode, shortCodeOf, type Carrier } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';

/**
 * The carrier of a number being typed, as soon as its 7X prefix is there (07X, +947X, 947X or
 * 7X), so the wall can say who will charge the fee and which short code applies before the
 * number is complete. Null while the prefix is not a known carrier's.
 */
export function carrierHint(input: string): { carrier: Carrier; shortCode: string } | null {
  const digits = input.replace(/[\s\-().]/g, '').replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return null;
  const national = digits.startsWith('94')
    ? digits.slice(2)
    : digits.startsWith('0')
      ? digits.slice(1)
      : digits;
  if (national.length < 2 || national.length > 9 || !national.startsWith('7')) return null;
  // carrierOf and shortCodeOf read a normalized number; its first four characters are enough.
  const probe = `94${national.slice(0, 2)}0000000`;
  const carrier = carrierOf(probe);
  return carrier ? { carrier, shortCode: shortCodeOf(probe) } : null;
}

/** Only the digits of a typed code: a pasted '123 456' or '123-456' still counts. */
export const codeDigits = (input: string): string => input.replace(/[\s-]/g, '');

/**
 * What went wrong. `field`: the number or the code itself (mistyped, used, expired, already a
 * member), said at the field it is about. The rest were not the reader's doing and show beneath
 * the wall's failure sentence of SPEC.md 8.
 */
export type FailureDetail =
  | { kind: 'field'; message: string }
  | { kind: 'offline' }
  | { kind: 'tooMany'; message: string }
  | { kind: 'server'; message: string }
  | { kind: 'none' };

/**
 * Sorts a failed membership call: a 4xx with the server's sentence about the input (at the
 * field), no answer at all, a 429 (the server's sentence says when to try again; without one,
 * the longest window of the code limits), or the carrier or the server failing (5xx).
 */
export function failureDetail(error: unknown): FailureDetail {
  if (!isApiError(error)) return { kind: 'none' };
  if (error.status === 0 || error.code === ResultCode.network) return { kind: 'offline' };
  if (error.status === 429 || error.code === ResultCode.tooManyRequests)
    return { kind: 'tooMany', message: error.message };
  if (error.status >= 400 && error.status < 500 && error.message)
    return { kind: 'field', message: error.message };
  return error.message ? { kind: 'server', message: error.message } : { kind: 'none' };
}

/** Minutes to wait after a 429 when the server did not say: the per-mobile window. */
export const RETRY_MINUTES = MEMBERSHIP.codesPerMobileWindowMinutes;

/** A masked number ('077 XXX X567') never breaks across lines. */
export const unbroken = (text: string): string => text.replace(/ /g, '\u00a0');
