import { SHORT_CODES } from './constants.ts';

/** Sri Lankan mobile carriers, by the 07X prefix of the number. */
export type Carrier = 'dialog' | 'mobitel' | 'hutch' | 'airtel';

const PREFIX_CARRIER: Record<string, Carrier> = {
  '70': 'mobitel',
  '71': 'mobitel',
  '72': 'hutch',
  '74': 'dialog',
  '75': 'airtel',
  '76': 'dialog',
  '77': 'dialog',
  '78': 'hutch',
};

/**
 * The number as the carrier writes it without 'tel:': 94 and nine digits. Accepts what a
 * reader types (077 123 4567, +94 77 123 4567, 94771234567, 771234567); null when it is not a
 * Sri Lankan mobile number of a known carrier.
 */
export function normalizeMobile(input: string): string | null {
  const digits = input.replace(/[\s\-().]/g, '').replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return null;
  const national = digits.startsWith('94')
    ? digits.slice(2)
    : digits.startsWith('0')
      ? digits.slice(1)
      : digits;
  if (!/^7\d{8}$/.test(national)) return null;
  if (!PREFIX_CARRIER[national.slice(0, 2)]) return null;
  return `94${national}`;
}

/** The carrier of a normalized number (94XXXXXXXXX). */
export const carrierOf = (mobile: string): Carrier | null =>
  PREFIX_CARRIER[mobile.slice(2, 4)] ?? null;

/** The short code a number texts: 77011 on Mobitel, 77100 on the others (SPEC.md 9). */
export const shortCodeOf = (mobile: string): string =>
  carrierOf(mobile) === 'mobitel' ? SHORT_CODES.mobitel : SHORT_CODES.default;

/** '94771234567' -> '077 XXX X567': enough for its owner to recognise it, no more. */
export const maskMobile = (mobile: string): string => {
  const national = `0${mobile.slice(2)}`;
  return `${national.slice(0, 3)} XXX X${national.slice(-3)}`;
};
