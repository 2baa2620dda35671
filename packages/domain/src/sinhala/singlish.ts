/**
 * Singlish typing: Latin letters to Sinhala Unicode by the phonetic scheme most Sri Lankans know
 * from Helakuru and Google's Sinhala input. Pure and table driven (a longest-match scan), so it
 * can run on every keystroke with no network.
 *
 * The scheme (one meaning per key; case matters only where a capital is listed):
 *   consonants  k ක  kh ඛ  g ග  gh ඝ  nng ඟ  (ng is ං, plus ග before a vowel: nangi නංගි;
 *               n before k, g or h is ං too: lankaa ලංකා, sinhala සිංහල, as Sinhala spells)
 *               ch/c ච  chh ඡ  j ජ  jh ඣ  kn ඤ  gn ඥ
 *               t ට  T ඨ  d ඩ  D ඪ  nnd ඬ   th ත  Th ථ  dh ද  Dh ධ  nndh ඳ
 *               n න  N ණ  p ප  ph ඵ  b බ  bh භ  m ම  mmb ඹ
 *               y ය  r ර  l ල  L ළ  w/v ව  sh ශ  Sh ෂ  s ස  h හ  f ෆ
 *   signs       x ං  H ඃ
 *   vowels      a අ  aa ආ  ae/A ඇ  aae/AA ඈ  i ඉ  ii ඊ  u උ  uu ඌ  e එ  ee/ei ඒ
 *               ai ඓ  o ඔ  oo ඕ  au ඖ  Ru ඍ  Ruu ඎ
 * After a consonant a vowel becomes its sign (ka ක, kaa කා, ki කි, kee කේ, koo කෝ, kRu කෘ);
 * a consonant with no vowel gets the hal kirima (k ක්). A consonant followed by r or y and then
 * a vowel takes rakaransaya / yansaya with the zero-width joiner (kra ක්‍ර, kya ක්‍ය).
 * sri, shri, srii and shrii all give ශ්‍රී. Choices where the common schemes disagree:
 * `ee` is ඒ (kee කේ) and `oo` is ඕ (koo කෝ), so the long i and u are `ii` and `uu`; ඍ is
 * `Ru` because `ru` must stay ර + ු (guru ගුරු); ඤ is `kn` (as in Helakuru) because `ny` is
 * න + yansaya far more often (saamaanya සාමාන්‍ය, Dhanyawaadha ධන්‍යවාද). A capital with no meaning of its own reads as
 * its small letter (phones capitalise the first letter: Gedara ගෙඩර), and so does H at a word
 * start (ඃ never starts a word); A, T, D, N, L, Sh, Th, Dh keep their meaning, as in Helakuru.
 * Digits, punctuation, spaces and non-Latin text pass through unchanged.
 */

const HAL = '\u0DCA';
const ZWJ = '\u200D';

/** Consonant keys to their letter. Longest key wins, so `th` beats `t`. */
const CONSONANTS: Readonly<Record<string, string>> = {
  k: 'ක',
  kh: 'ඛ',
  g: 'ග',
  gh: 'ඝ',
  ng: 'ඟ',
  nng: 'ඟ',
  c: 'ච',
  ch: 'ච',
  chh: 'ඡ',
  j: 'ජ',
  jh: 'ඣ',
  kn: 'ඤ',
  gn: 'ඥ',
  t: 'ට',
  T: 'ඨ',
  d: 'ඩ',
  D: 'ඪ',
  nnd: 'ඬ',
  th: 'ත',
  Th: 'ථ',
  dh: 'ද',
  Dh: 'ධ',
  nndh: 'ඳ',
  n: 'න',
  N: 'ණ',
  p: 'ප',
  ph: 'ඵ',
  b: 'බ',
  bh: 'භ',
  m: 'ම',
  mmb: 'ඹ',
  y: 'ය',
  r: 'ර',
  l: 'ල',
  L: 'ළ',
  w: 'ව',
  v: 'ව',
  sh: 'ශ',
  Sh: 'ෂ',
  s: 'ස',
  h: 'හ',
  f: 'ෆ',
};

/** Vowel keys: the independent letter (word start, after a vowel) and the sign (after a consonant). */
const VOWELS: Readonly<Record<string, readonly [letter: string, sign: string]>> = {
  a: ['අ', ''],
  aa: ['ආ', '\u0DCF'],
  ae: ['ඇ', '\u0DD0'],
  A: ['ඇ', '\u0DD0'],
  aae: ['ඈ', '\u0DD1'],
  AA: ['ඈ', '\u0DD1'],
  i: ['ඉ', '\u0DD2'],
  ii: ['ඊ', '\u0DD3'],
  u: ['උ', '\u0DD4'],
  uu: ['ඌ', '\u0DD6'],
  e: ['එ', '\u0DD9'],
  ee: ['ඒ', '\u0DDA'],
  ei: ['ඒ', '\u0DDA'],
  ai: ['ඓ', '\u0DDB'],
  o: ['ඔ', '\u0DDC'],
  oo: ['ඕ', '\u0DDD'],
  au: ['ඖ', '\u0DDE'],
  Ru: ['ඍ', '\u0DD8'],
  Ruu: ['ඎ', '\u0DF2'],
};

/** Signs that stand alone after a letter. */
const SIGNS: Readonly<Record<string, string>> = { x: 'ං', H: 'ඃ' };

/** Whole spellings handled before the letter rules (the letters alone would give ස්‍රි). */
const SPECIAL: Readonly<Record<string, string>> = {
  shrii: 'ශ්‍රී',
  shri: 'ශ්‍රී',
  srii: 'ශ්‍රී',
  sri: 'ශ්‍රී',
};

const longestKey = (table: Readonly<Record<string, unknown>>): number =>
  Math.max(...Object.keys(table).map((key) => key.length));

const MAX_KEY = Math.max(
  longestKey(CONSONANTS),
  longestKey(VOWELS),
  longestKey(SIGNS),
  longestKey(SPECIAL),
);

/** A capital that is not a key itself reads as its small letter (phones capitalise words). */
const CAPITAL_KEYS = new Set(
  [CONSONANTS, VOWELS, SIGNS]
    .flatMap((table) => Object.keys(table))
    .filter((key) => /^[A-Z]/.test(key))
    .map((key) => key[0]!),
);

/** Lower-cases the capitals that carry no meaning of their own, so `Gedara` reads as `gedara`. */
const foldCapitals = (latin: string): string =>
  latin
    // A word in capitals (caps lock, a shouted word) is read as small letters.
    .replace(/\b[A-Z]{3,}\b/g, (word) => word.toLowerCase())
    .replace(/[A-Z]/g, (ch, offset: number, whole: string) => {
      if (!CAPITAL_KEYS.has(ch)) return ch.toLowerCase();
      // ඃ never starts a word, so a word-initial H is a capitalised h.
      if (ch === 'H' && !/[A-Za-z]/.test(whole[offset - 1] ?? '')) return 'h';
      // `Sh`, `Th`, `Dh`, `Ru` need their second letter; S and R alone mean nothing.
      if ((ch === 'S' || ch === 'R') && !/[hu]/.test(whole[offset + 1] ?? '')) {
        return ch.toLowerCase();
      }
      return ch;
    });

/** Finds the longest key of `table` at `pos`, or undefined. */
const matchAt = <V>(
  table: Readonly<Record<string, V>>,
  text: string,
  pos: number,
): { key: string; value: V } | undefined => {
  for (let len = Math.min(MAX_KEY, text.length - pos); len > 0; len -= 1) {
    const key = text.slice(pos, pos + len);
    const value = table[key];
    if (value !== undefined) return { key, value };
  }
  return undefined;
};

const startsVowel = (text: string, pos: number): boolean =>
  matchAt(VOWELS, text, pos) !== undefined;

/** Converts Latin Singlish to Sinhala Unicode (NFC, ZWJ kept); anything else passes through. */
export const transliterate = (latin: string): string => {
  const text = foldCapitals(latin);
  let out = '';
  let pos = 0;
  while (pos < text.length) {
    const prev = text[pos - 1];
    const wordStart = prev === undefined || !/[A-Za-z]/.test(prev);
    const special = matchAt(SPECIAL, text, pos);
    if (special && wordStart && !/[A-Za-z]/.test(text[pos + special.key.length] ?? '')) {
      out += special.value;
      pos += special.key.length;
      continue;
    }
    const consonant = matchAt(CONSONANTS, text, pos);
    if (consonant) {
      pos += consonant.key.length;
      // `ng` is the anusvara, with ග when a vowel follows (nangi නංගි, langkaa ලංකා);
      // the prenasal ඟ is `nng` (gannga ගඟ), like ඬ `nnd`, ඳ `nndh` and ඹ `mmb`.
      if (consonant.key === 'ng') {
        out += 'ං';
        if (!startsVowel(text, pos)) continue;
      }
      // Before k, g and h Sinhala writes the anusvara, not න් (lankaa ලංකා, sinhala සිංහල).
      if (consonant.key === 'n' && /[kgh]/.test(text[pos] ?? '')) {
        out += 'ං';
        continue;
      }
      out += consonant.key === 'ng' ? 'ග' : consonant.value;
      // Rakaransaya and yansaya: k + r/y + vowel.
      const next = text[pos];
      if (
        (next === 'r' || next === 'y') &&
        consonant.value !== 'ර' &&
        consonant.value !== 'ය' &&
        startsVowel(text, pos + 1)
      ) {
        out += HAL + ZWJ + (next === 'r' ? 'ර' : 'ය');
        pos += 1;
      }
      const vowel = matchAt(VOWELS, text, pos);
      if (vowel) {
        out += vowel.value[1];
        pos += vowel.key.length;
      } else {
        out += HAL;
      }
      continue;
    }
    const vowel = matchAt(VOWELS, text, pos);
    if (vowel) {
      out += vowel.value[0];
      pos += vowel.key.length;
      continue;
    }
    const sign = matchAt(SIGNS, text, pos);
    if (sign) {
      out += sign.value;
      pos += sign.key.length;
      continue;
    }
    out += text[pos];
    pos += 1;
  }
  return out.normalize('NFC');
};

/** The key tables, exported for the help panel (see help.ts). */
export const SINGLISH_TABLES = { CONSONANTS, VOWELS, SIGNS } as const;
