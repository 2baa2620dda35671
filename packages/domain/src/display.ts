import { MAX_RATING, THOUSANDS_THRESHOLD, USERNAME_DISPLAY_CHARS } from './constants.ts';
import { truncateGraphemes } from './text.ts';

/** A text's first code point and the combining marks on it: all of its first grapheme that has case. */
const FIRST_LETTER = /^[^]\p{M}*/u;

/** Displayed username: first letter capitalised, cut to 12 characters (SPEC.md 5). */
export const displayUsername = (name: string): string =>
  // Only the first letter and its marks change case, so a name needs splitting only to be cut:
  // a short one is shown without making a grapheme segmenter (costly on a phone's first page).
  truncateGraphemes(name.trim(), USERNAME_DISPLAY_CHARS).replace(FIRST_LETTER, (first) =>
    first.toLocaleUpperCase(),
  );

/** 1000 or more shows as thousands with two decimals and K: 1234 -> '1.23K' (SPEC.md 5). */
export const formatCount = (n: number): string => {
  if (!Number.isFinite(n)) return '0';
  if (Math.abs(n) < THOUSANDS_THRESHOLD) return String(Math.trunc(n));
  return `${(Math.trunc(n / 10) / 100).toFixed(2)}K`;
};

/** Caps a rating at 5 and snaps it to half steps, 0 at the least (SPEC.md 4, 5). */
export const clampRating = (rating: number): number => {
  if (!Number.isFinite(rating) || rating <= 0) return 0;
  return Math.min(MAX_RATING, Math.round(rating * 2) / 2);
};

/** A comment's shown rating: rounded to halves, at most 4.5 unless exactly 5 (SPEC.md 5). */
export const displayCommentRating = (rating: number): number => {
  if (rating === MAX_RATING) return MAX_RATING;
  return Math.min(4.5, clampRating(rating));
};

/** Sri Lanka is UTC+05:30 all year (no daylight saving). */
const SRI_LANKA_OFFSET_MS = (5 * 60 + 30) * 60_000;
const two = (n: number) => String(n).padStart(2, '0');

/** A moment as SPEC.md 3's createdDate: `DD-MM-YY hh:mm:ss a` in Sri Lanka time ('22-11-26 09:05:00 pm'). */
export const formatCreatedDate = (when: Date | string | number): string => {
  const t = new Date(new Date(when).getTime() + SRI_LANKA_OFFSET_MS);
  const h = t.getUTCHours();
  return `${two(t.getUTCDate())}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCFullYear() % 100)} ${two(h % 12 || 12)}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} ${h < 12 ? 'am' : 'pm'}`;
};

/** The Sri Lanka calendar day of a moment, as YYYY-MM-DD: views are counted once per reader per day. */
export const sriLankaDay = (when: Date | string | number): string =>
  new Date(new Date(when).getTime() + SRI_LANKA_OFFSET_MS).toISOString().slice(0, 10);
