import { singlishKey, singlishKeys, toStored } from '@kathamala/domain';

/**
 * The kept word list's matching, on search's own folding (singlishKey, SINGLISH_KEY_VERSION 2):
 * Sinhala script with or without ZWJ/ZWNJ and its Singlish spellings fold to one key, so a word
 * listed once is found however it is typed. Whole words only (a listed `ass` must not hold
 * `class`); a listed phrase matches its words in a row.
 */

/** The main key of a listed word (two spellings of one word share it), or '' for none. */
export const wordKey = (word: string): string => singlishKey(toStored(word));

/** Every key a listed word matches by: its own, and for ේ/ෝ words the typing scheme's. */
export const wordKeys = (word: string): string[] => [
  ...new Set(singlishKeys(toStored(word).trim()).map((k) => k.trim())),
];

/** A text's folded forms, each padded with spaces so a key is found only as whole words. */
export const textForms = (text: string): string[] =>
  [...new Set(singlishKeys(toStored(text)).map((k) => k.trim()))].map((k) => ` ${k} `);

/** The first listed word (by its keys) that the text contains, or null. */
export function firstListedWord<W extends { word: string; keys: readonly string[] }>(
  text: string,
  words: readonly W[],
): W | null {
  if (words.length === 0) return null;
  const forms = textForms(text);
  return (
    words.find((w) => w.keys.some((k) => k !== '' && forms.some((f) => f.includes(` ${k} `)))) ??
    null
  );
}
