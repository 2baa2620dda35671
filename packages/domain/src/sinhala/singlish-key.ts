/**
 * One romanized search key for Sinhala script and for Latin "Singlish", so that `ගෙදර`, `gedara`,
 * `gedhara` and `gedaraa` all fold to `gedara`.
 *
 * Design (SQL independent): the server stores singlishKey(title), singlishKey(authorName) and
 * singlishKey(description), computed here in TypeScript, and compares them with
 * singlishKey(query) through pg_trgm similarity. One function serves both sides, so they cannot
 * drift apart, and trigram similarity on the key tolerates a typo.
 *
 * Steps: NFC; ZWJ/ZWNJ removed; Sinhala romanized letter by letter (inherent `a` unless a vowel
 * sign or the hal kirima follows); then the whole string, Sinhala-born or typed, goes through the
 * same Latin folding:
 *   - lower case; aspirates lose their h (kh gh ch jh th dh ph bh sh → k g c j t d p b s), chh → c;
 *   - retroflex and dental meet (ට/ත → t, ඩ/ද → d, ණ/න → n, ළ/ල → l); ශ/ෂ/ස → s; v → w;
 *     kn (the typing key of ඤ) → ny;
 *   - vowel length goes: Sinhala long vowels romanize short (ා a, ී i, ේ e, ෝ o) and typed runs
 *     collapse (aa → a, ii → i, uu → u); a doubled e or o is read as casual spelling reads it,
 *     ee → i and oo → u (meedum මීදුම්, sangeetha සංගීත, poosa පූසා), since a one-letter key
 *     difference in a short word is below trigram similarity's threshold; ae, aee, ei → e (ඇ, ඈ);
 *   - the typing scheme's ee (ේ) and oo (ෝ) still find their words: a stored Sinhala word with
 *     ේ/ඒ or ෝ/ඕ has a second key, the one ee/oo fold to (singlishKeys: මේසය is mesaya and
 *     misaya, so `mesaya` and `meesaya` both meet it);
 *   - ං is `n`, and a typed `ng` before a consonant or at a word end → n, so ලංකා, lanka and
 *     langka meet, while `ng` before a vowel stays (ගඟ, ගංගා, ganga);
 *   - any run of one letter collapses (mm → m), so doubled consonants meet single ones;
 *   - anything that is not a letter or digit becomes a space; spaces collapse; words stay apart.
 * Limits: a one-vowel change in a short word (pusa / poosa) is below pg_trgm's default 0.3
 * similarity; `x` typed for ං is not folded (English words have x); nothing is stemmed.
 * English text goes through the same Latin folding ("the lantern" → "te lantern"), so an English
 * query still matches English text; only the key changes, never the stored text.
 */

const ZERO_WIDTH = /[\u200C\u200D]/g;

/** Sinhala consonants to a Latin spelling; the folding below merges the pairs. */
const CONSONANT_ROMAN: Readonly<Record<string, string>> = {
  ක: 'k',
  ඛ: 'kh',
  ග: 'g',
  ඝ: 'gh',
  ඞ: 'ng',
  ඟ: 'ng',
  ච: 'ch',
  ඡ: 'chh',
  ජ: 'j',
  ඣ: 'jh',
  ඤ: 'ny',
  ඥ: 'gn',
  ට: 't',
  ඨ: 'th',
  ඩ: 'd',
  ඪ: 'dh',
  ඬ: 'nd',
  ණ: 'n',
  ත: 'th',
  ථ: 'th',
  ද: 'dh',
  ධ: 'dh',
  න: 'n',
  ඳ: 'nd',
  ප: 'p',
  ඵ: 'ph',
  බ: 'b',
  භ: 'bh',
  ම: 'm',
  ඹ: 'mb',
  ය: 'y',
  ර: 'r',
  ල: 'l',
  ව: 'w',
  ශ: 'sh',
  ෂ: 'sh',
  ස: 's',
  හ: 'h',
  ළ: 'l',
  ෆ: 'f',
};

/** Independent vowels and vowel signs to Latin, length already dropped (ා a, ී i, ේ e). */
const VOWEL_ROMAN: Readonly<Record<string, string>> = {
  අ: 'a',
  ආ: 'a',
  ඇ: 'e',
  ඈ: 'e',
  ඉ: 'i',
  ඊ: 'i',
  උ: 'u',
  ඌ: 'u',
  ඍ: 'ru',
  ඎ: 'ru',
  ඏ: 'lu',
  ඐ: 'lu',
  එ: 'e',
  ඒ: 'e',
  ඓ: 'ai',
  ඔ: 'o',
  ඕ: 'o',
  ඖ: 'au',
  '\u0DCF': 'a', // ා
  '\u0DD0': 'e', // ැ
  '\u0DD1': 'e', // ෑ
  '\u0DD2': 'i', // ි
  '\u0DD3': 'i', // ී
  '\u0DD4': 'u', // ු
  '\u0DD6': 'u', // ූ
  '\u0DD8': 'ru', // ෘ
  '\u0DF2': 'ru', // ෲ
  '\u0DDF': 'lu', // ෟ
  '\u0DF3': 'lu', // ෳ
  '\u0DD9': 'e', // ෙ
  '\u0DDA': 'e', // ේ
  '\u0DDB': 'ai', // ෛ
  '\u0DDC': 'o', // ො
  '\u0DDD': 'o', // ෝ
  '\u0DDE': 'au', // ෞ
};

const HAL = '\u0DCA';
// ං is spelt `n`: typists write lanka and sinhala for ලංකා and සිංහල.
const SIGN_ROMAN: Readonly<Record<string, string>> = { 'ං': 'n', 'ඃ': 'h' };

/** Spells Sinhala letters in Latin; other characters are kept as they are. */
const romanize = (text: string): string => {
  let out = '';
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i]!;
    const consonant = CONSONANT_ROMAN[ch];
    if (consonant !== undefined) {
      out += consonant;
      const next = chars[i + 1];
      if (next === HAL) i += 1;
      else if (next === undefined || !isSign(next)) out += 'a';
      continue;
    }
    if (ch === HAL) continue;
    out += VOWEL_ROMAN[ch] ?? SIGN_ROMAN[ch] ?? ch;
  }
  return out;
};

/** True for a dependent vowel sign (U+0DCF to U+0DDF, U+0DF2, U+0DF3). */
const isSign = (ch: string): boolean => /[\u0DCF-\u0DDF\u0DF2\u0DF3]/.test(ch);

/** Folds Latin letters by the rules in the header; input is lower case. */
const foldLatin = (latin: string): string =>
  latin
    .replace(/v/g, 'w')
    .replace(/kn/g, 'ny')
    .replace(/a+e+/g, 'e')
    .replace(/ee+/g, 'i')
    .replace(/oo+/g, 'u')
    .replace(/ei/g, 'e')
    .replace(/(\p{L})\1+/gu, '$1')
    // Before the aspirates lose their h, so `singhala` (ං + හ) meets සිංහල.
    .replace(/ng(?![aeiou])/g, 'n')
    .replace(/([kgcjtdpbs])h/g, '$1')
    .replace(/(\p{L})\1+/gu, '$1');

/**
 * Bumped whenever the folding below changes: keys stored by the server with an older version
 * must be recomputed, or stored and query keys stop meeting.
 */
export const SINGLISH_KEY_VERSION = 2;

/** Folds Sinhala Unicode or Latin Singlish (or English) to one romanized, space-separated key. */
export const singlishKey = (text: string): string => {
  const plain = text.normalize('NFC').replace(ZERO_WIDTH, '');
  const latin = romanize(plain).toLowerCase();
  return foldLatin(latin.replace(/[^\p{L}\p{N}]+/gu, ' '))
    .replace(/\s+/g, ' ')
    .trim();
};

/** Long ේ ඒ ෝ ඕ as the long vowels a casual ee/oo stands for (ී ඊ ූ ඌ). */
const SCHEME_LONG_AS_CASUAL: Readonly<Record<string, string>> = {
  '\u0DDA': '\u0DD3', // ේ → ී
  ඒ: 'ඊ',
  '\u0DDD': '\u0DD6', // ෝ → ූ
  ඕ: 'ඌ',
};

/**
 * Every key a Sinhala word is found by: its own, and for a word with ේ/ඒ or ෝ/ඕ the key its
 * typing-scheme spelling folds to (ee and oo fold as ී and ූ do): මේසය gives mesaya (typed
 * mesaya) and misaya (typed meesaya). Stored keys hold them all; a query has one key.
 */
export const singlishKeys = (word: string): string[] => {
  const own = singlishKey(word);
  const typed = singlishKey(
    word.replace(/\u0DDA|\u0D92|\u0DDD|\u0D95/g, (c) => SCHEME_LONG_AS_CASUAL[c]!),
  );
  return typed === own ? [own] : [own, typed];
};
