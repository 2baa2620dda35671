import { MAX_RATING, STORY_KINDS } from '@kathamala/domain';

/** How readers rate a story of a kind: claps for kinds 2 and 3, stars for text stories. */
export type RatingStyle = 'stars' | 'claps';

/** The one place that decides stars or claps (docs/decisions.md: kinds 2 and 3 clap). */
export const ratingStyleFor = (kind: number): RatingStyle =>
  kind === STORY_KINDS.other2 || kind === STORY_KINDS.other3 ? 'claps' : 'stars';

/** One more clap, up to 5 (SPEC.md 4). */
export const nextClaps = (claps: number): number => Math.min(MAX_RATING, Math.floor(claps) + 1);

/** One clap taken back; none left is no rating at all (0, which the server clears). */
export const fewerClaps = (claps: number): number => Math.max(0, Math.floor(claps) - 1);

/** The value that takes a rating back: the server keeps no rating for it. */
export const NO_RATING = 0;

const HALF = 0.5;
const clampStars = (v: number) => Math.min(MAX_RATING, Math.max(HALF, Math.round(v * 2) / 2));

/**
 * The star value after a key press on the slider (arrows by half a star, Home/End, PageUp/Down
 * by a whole star, digits 1-5; 0, Delete or Backspace take the rating back), or null for a key
 * the slider does not use.
 */
export const starsAfterKey = (value: number, key: string): number | null => {
  const from = value > 0 ? value : 0;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clampStars(from + HALF);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampStars(from - HALF);
    case 'PageUp':
      return clampStars(from + 1);
    case 'PageDown':
      return clampStars(from - 1);
    case 'Home':
      return HALF;
    case 'End':
      return MAX_RATING;
    case '0':
    case 'Delete':
    case 'Backspace':
      return NO_RATING;
    default:
      return /^[1-5]$/.test(key) ? Number(key) : null;
  }
};

/** The star value under the pointer: star `index` (0-based), left half gives a half star. */
export const starsAtPointer = (index: number, fractionX: number): number =>
  clampStars(index + (fractionX < 0.5 ? HALF : 1));

/** How much of star `index` (0-based) is filled for a value: 0, 0.5 or 1. */
export const starFill = (value: number, index: number): 0 | 0.5 | 1 => {
  const rest = value - index;
  return rest >= 1 ? 1 : rest >= HALF ? 0.5 : 0;
};
