/**
 * Typo tolerance for search, in the manner of Meilisearch and Typesense: a word of 1-4 letters
 * must be typed right, 5-8 letters may carry one typo, 9 or more two. A typo is a letter
 * missing, added or changed, or two neighbours swapped (Damerau: `latnern` is one typo from
 * `lantern`). Letters are code points of the folded word, so a Sinhala vowel sign counts as one.
 */

/** Words that may be corrected: letters and combining signs only (no digits, no syntax). */
const WORD = /^[\p{L}\p{M}]+$/u;

/** The longest word we correct: past it, the distance check would cost more than it finds. */
const MAX_LETTERS = 40;

/** How many typos a word of this many letters may carry (0, 1 or 2). */
export const allowedTypos = (letters: number): number => (letters >= 9 ? 2 : letters >= 5 ? 1 : 0);

/** The typed words that may carry a typo, each once, in order. */
export const correctableWords = (words: string[]): string[] => [
  ...new Set(
    words.filter((w) => {
      const n = [...w].length;
      return WORD.test(w) && allowedTypos(n) > 0 && n <= MAX_LETTERS;
    }),
  ),
];

/**
 * The word with each pair of neighbouring letters swapped. A swap breaks up to three trigrams,
 * so trigram similarity alone misses many; looking these up exactly finds them at once.
 */
export const swapVariants = (word: string): string[] => {
  const letters = [...word];
  const out = new Set<string>();
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const v = letters.slice();
    [v[i], v[i + 1]] = [v[i + 1]!, v[i]!];
    out.add(v.join(''));
  }
  out.delete(word);
  return [...out];
};

/**
 * The Damerau-Levenshtein distance (optimal string alignment) between two words, in code points;
 * any answer above `max` is reported as max + 1, and the work stops as soon as it is certain.
 */
export const typoDistance = (a: string, b: string, max: number): number => {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  const width = t.length + 1;
  // Three rows: two back for the swap, one back, and the one being filled.
  let prev2 = new Array<number>(width).fill(0);
  let prev = Array.from({ length: width }, (_, j) => j);
  let cur = new Array<number>(width).fill(0);
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[t.length]!, max + 1);
};

/**
 * The candidates that are real corrections of the typed word: within its allowed typos and not
 * the word itself, nearest first (then alphabetical, so the answer is stable), at most `limit`.
 */
export const corrections = (word: string, candidates: string[], limit = 8): string[] => {
  const max = allowedTypos([...word].length);
  return candidates
    .filter((c) => c !== word)
    .map((c) => ({ c, d: typoDistance(word, c, max) }))
    .filter((x) => x.d <= max)
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.c);
};
