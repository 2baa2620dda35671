import { singlishKey, singlishKeys } from '@kathamala/domain';

/** A Sinhala word: Sinhala letters and signs, with the joiners that shape conjuncts. */
const SINHALA_WORD = /[\u0D80-\u0DFF][\u0D80-\u0DFF\u200C\u200D]*/gu;

/** True when the text has any Sinhala letter (a query typed in Sinhala script). */
export const hasSinhala = (text: string): boolean => /[\u0D80-\u0DFF]/u.test(text);

/**
 * The Singlish keys of the Sinhala words of a text, in order: 'ගෙදර යමු' gives the key that
 * 'gedara yamu' and 'gedhara yamu' fold to; a word with ේ or ෝ gives its second key after its
 * own (singlishKeys: 'මේසය' is 'mesaya misaya', for `mesaya` and the typing scheme's `meesaya`).
 * Latin words are left out: the ordinary full-text search already finds them, and their keys
 * would let English text answer Singlish.
 */
export const singlishKeyOf = (text: string): string =>
  (text.match(SINHALA_WORD) ?? [])
    .flatMap((w) => singlishKeys(w).map((k) => k.trim()))
    .filter(Boolean)
    .join(' ');

/**
 * The keys of every distinct Sinhala word of a long text (episodes), each once: the full-text
 * document needs each word only once, and a long story repeats most of its words.
 */
export const distinctWordKeys = (text: string): string => {
  const seen = new Set<string>();
  for (const word of text.match(SINHALA_WORD) ?? []) seen.add(word);
  const keys = new Set<string>();
  for (const word of seen)
    for (const key of singlishKeys(word)) if (key.trim()) keys.add(key.trim());
  return [...keys].join(' ');
};

/** The key a search query is compared with: Latin Singlish and Sinhala script fold alike. */
export const queryKey = (query: string): string =>
  singlishKey(query)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
