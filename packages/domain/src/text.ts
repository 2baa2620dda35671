/** Sinhala-aware text handling: NFC storage, ZWJ-folded search keys, grapheme truncation. */

const ZERO_WIDTH_JOINERS = /[\u200C\u200D]/g;

/** Normalises text for storage: NFC, zero-width joiners kept (they change how Sinhala renders). */
export const toStored = (text: string): string => text.normalize('NFC');

/** The search key: NFC, lower case, ZWJ/ZWNJ folded out so 'ශ්‍රී' and 'ශ්රී' match. */
export const toSearchKey = (text: string): string =>
  text.normalize('NFC').replace(ZERO_WIDTH_JOINERS, '').toLowerCase().trim();

// Old WebViews lack Intl.Segmenter; there, code points keep the app working (less precisely).
// Made on first use: creating one loads the browser's break rules, about a third of the app's
// start-up script time on a phone, and most pages never split a text.
let segmenter: Intl.Segmenter | null | undefined;
const graphemeSegmenter = () =>
  (segmenter ??=
    typeof Intl.Segmenter === 'function'
      ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
      : null);

/** Splits text into user-perceived characters (a Sinhala conjunct stays whole). */
export const graphemes = (text: string): string[] => {
  const s = graphemeSegmenter();
  return s ? Array.from(s.segment(text), (part) => part.segment) : Array.from(text);
};

/** Cuts text to at most `max` graphemes, never inside a letter cluster. */
export const truncateGraphemes = (text: string, max: number, ellipsis = ''): string => {
  // Every grapheme is at least one UTF-16 unit: a text this short has nothing to cut.
  if (text.length <= max) return text;
  const parts = graphemes(text);
  if (parts.length <= max) return text;
  const kept = parts.slice(0, max);
  // A cluster ending in a joiner binds to the next one (ශ්‍ + රී): keep both or neither.
  while (kept.length && kept[kept.length - 1]!.endsWith('\u200D')) kept.pop();
  return kept.join('').trimEnd() + ellipsis;
};

/** True when the text is mostly Sinhala script (U+0D80 to U+0DFF). */
export const looksSinhala = (text: string): boolean => {
  const letters = text.replace(/[\s\p{P}\p{N}]/gu, '');
  if (!letters) return false;
  const sinhala = letters.match(/[\u0D80-\u0DFF]/g)?.length ?? 0;
  return sinhala / letters.length > 0.5;
};
