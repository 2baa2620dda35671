/**
 * Text typed for the FM Abhaya family of legacy fonts (FM Abhaya, FM Malithi, FM Derana,
 * FM Ganganee, FM Bindumathi, FM Emanee... share one glyph layout): the bytes are Latin letters
 * and punctuation that only look Sinhala in that font. This module recognises such text and
 * converts it to Unicode Sinhala (NFC, ZWJ in rakaransaya and yansaya).
 *
 * The glyph table below is our own reimplementation (no code copied), checked against the public
 * FM Abhaya mappings of akuruAI/Pandukabhaya (mappings/fm_abhaya.json) and
 * Open-SL/sinhala-unicode-converter (src/translators/fm_abaya_to_unicode.ts), both derived from
 * the UCSC converter, and manula-sameera/fm-to-unicode (code.gs). DL Manel text shares the
 * layout for the common letters (Open-SL's DL Manel test reads like FM). Those converters list
 * every consonant and vowel-sign combination one by one; here the glyphs are mapped once and the
 * vowel signs these fonts type BEFORE their consonant (the kombuva `f`, doubled `ff` for ෛ) are
 * moved after the consonant cluster by rule, so every combination comes out right, rare ones too.
 */

const ZWJ = '\u200D';
const HAL = '\u0DCA';
const RAKAR = HAL + ZWJ + 'ර';
const YANSA = HAL + ZWJ + 'ය';

/** Stand-ins while reordering (Unicode private use area; replaced before returning). */
const KOMBUVA = '\uE001';
/**
 * Conjuncts drawn as one glyph stand in as one private-use character while reordering, so a
 * kombuva in front moves past the whole cluster (f‡ is න්දෙ, not න්ෙද).
 */
const CLUSTERS: Readonly<Record<string, string>> = {
  '\uE002': 'ක්ෂ',
  '\uE003': 'ද්ධ',
  '\uE004': 'ද්ව',
  '\uE005': 'න්ද',
  '\uE006': 'ත්ථ',
  '\uE007': 'ත්ව',
  '\uE008': 'ට්ඨ',
};
const [KSHA, DDHA, DVA, NDA, TTHA, TVA, TTTHA] = Object.keys(CLUSTERS) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

/**
 * FM glyph sequences to Unicode. Longest sequence wins (`wd` ආ before `w` අ). Where the two
 * references disagree we follow the glyph pairs of the font (ä ඩි / ã ඩී, like á ටි / à ටී)
 * and manula-sameera/fm-to-unicode's corrections (¨ ලු, × ඥා, Ø ඤා, ? රෑ, the backtick
 * prenasal forms `o ඳ, `v ඬ, `. ඟ).
 */
const GLYPHS: Readonly<Record<string, string>> = {
  // Vowels.
  w: 'අ',
  wd: 'ආ',
  we: 'ඇ',
  wE: 'ඈ',
  b: 'ඉ',
  B: 'ඊ',
  W: 'උ',
  'W!': 'ඌ',
  R: 'ඍ',
  RD: 'ඎ',
  Ì: 'ඏ',
  Ï: 'ඐ',
  t: 'එ',
  ta: 'ඒ',
  ft: 'ඓ',
  T: 'ඔ',
  '´': 'ඕ',
  Ta: 'ඕ',
  'T!': 'ඖ',
  // Consonants.
  l: 'ක',
  L: 'ඛ',
  '.': 'ග',
  '>': 'ඝ',
  X: 'ඞ',
  '`y': 'ඟ',
  '`.': 'ඟ',
  '`P': 'ඦ',
  Õ: 'ඟ',
  p: 'ච',
  P: 'ඡ',
  c: 'ජ',
  '®': 'ඣ',
  CO: 'ඣ',
  '[': 'ඤ',
  Ø: 'ඤා',
  '{': 'ඥ',
  '×': 'ඥා',
  g: 'ට',
  G: 'ඨ',
  v: 'ඩ',
  V: 'ඪ',
  K: 'ණ',
  '~': 'ඬ',
  '`V': 'ඬ',
  '`v': 'ඬ',
  ';': 'ත',
  ':': 'ථ',
  o: 'ද',
  O: 'ධ',
  k: 'න',
  '|': 'ඳ',
  '`o': 'ඳ',
  m: 'ප',
  M: 'ඵ',
  n: 'බ',
  N: 'භ',
  u: 'ම',
  U: 'ඹ',
  h: 'ය',
  r: 'ර',
  ',': 'ල',
  j: 'ව',
  Y: 'ශ',
  I: 'ෂ',
  i: 'ස',
  y: 'හ',
  '<': 'ළ',
  '*': 'ෆ',
  CI: KSHA,
  Ë: KSHA,
  Š: DDHA,
  '`O': DDHA,
  '„': DVA,
  '`j': DVA,
  '‡': NDA,
  '†': TTHA,
  '…': TVA,
  '`G': TTTHA,
  // Consonants drawn with their hal kirima.
  C: 'ක්',
  Ä: 'ඛ්',
  É: 'ච්',
  Ê: 'ජ්',
  þ: 'ඡ්',
  Ü: 'ට්',
  Ù: 'ඞ්',
  '`Ù': 'ඬ්',
  F: 'ත්',
  è: 'ධ්',
  J: 'න්',
  í: 'බ්',
  ï: 'ම්',
  ò: 'ඹ්',
  '¾': 'ර්',
  õ: 'ව්',
  â: 'ඩ්',
  å: 'ඬ්',
  // Consonants drawn with their vowel sign.
  '/': 'රැ',
  re: 'රු',
  rE: 'රූ',
  ß: 'රි',
  Í: 'රී',
  '¿': 'ළු',
  Æ: 'ලූ',
  '¨': 'ලු',
  ÿ: 'දු',
  È: 'දි',
  '§': 'දී',
  Þ: 'දා',
  '±': 'දැ',
  '÷': 'ඳු',
  '`ÿ': 'ඳු',
  ª: 'ඳූ',
  '`¥': 'ඳූ',
  '¥': 'දූ',
  '\\': 'ඳා',
  '?': 'රෑ',
  '¢': 'ඳි',
  '`È': 'ඳි',
  ý: 'ඡි',
  '‹': DDHA + 'ි',
  '‰': DVA + 'ි',
  '£': 'ඳී',
  '`§': 'ඳී',
  ƒ: 'ඳැ',
  '¯': 'ඣි',
  ˉ: 'ඣි',
  '°': 'ඣී',
  À: 'ඨි',
  Á: 'ඨී',
  Â: 'ඡී',
  Å: 'ඛි',
  Ç: 'ඛී',
  Î: 'ඪි',
  Ð: 'ඪී',
  Ñ: 'චි',
  Ö: 'චී',
  Ó: 'ථි',
  Ò: 'ථී',
  ð: 'ජි',
  Ô: 'ජී',
  Ý: 'ඵී',
  Ú: 'ඵී',
  á: 'ටි',
  à: 'ටී',
  ã: 'ඩී',
  '`ã': 'ඬී',
  ä: 'ඩි',
  '`ä': 'ඬි',
  ç: 'ඬි',
  é: 'ඬී',
  ê: 'ධි',
  ë: 'ධී',
  ì: 'බි',
  î: 'බී',
  ñ: 'මි',
  ó: 'මී',
  ô: 'ඹි',
  ö: 'ඹී',
  ú: 'වි',
  ù: 'වී',
  '‚': 'ණි',
  Œ: 'ණී',
  û: 'ඤු',
  ü: 'ඤූ',
  // Conjuncts drawn as one glyph.
  '%': RAKAR,
  H: YANSA,
  ø: 'ද' + RAKAR,
  '›': 'ශ' + RAKAR + 'ී',
  ˆ: NDA + 'ා',
  // Vowel signs and other signs.
  f: KOMBUVA,
  a: HAL,
  A: HAL,
  d: 'ා',
  e: 'ැ',
  E: 'ෑ',
  s: 'ි',
  S: 'ී',
  q: 'ු',
  '=': 'ු',
  Q: 'ූ',
  '+': 'ූ',
  D: 'ෘ',
  DD: 'ෲ',
  '!': 'ෟ',
  '!!': 'ෳ',
  x: 'ං',
  '#': 'ඃ',
  '½': 'ඃ',
  // Punctuation moved to other keys in these fonts.
  "'": '.',
  '"': ',',
  Z: '’',
  z: '‘',
  ']': '%',
  '^': '(',
  '&': ')',
  '(': ':',
  ')': '*',
  '@': '?',
  $: '/',
  '}': '=',
  æ: '!',
  '¤': '–',
  '¦': ';',
  '«': '×',
  '¬': '+',
};

const MAX_GLYPH = Math.max(...Object.keys(GLYPHS).map((key) => key.length));

/** Unicode consonants U+0D9A to U+0DC6, plus the ක්ෂ stand-in. */
const CONSONANT = `[\\u0D9A-\\u0DC6${Object.keys(CLUSTERS).join('')}]`;
/** A kombuva (or two, for ෛ) typed before its consonant and any rakaransaya/yansaya. */
const PREFIX_VOWEL = new RegExp(`(${KOMBUVA}{1,2})(${CONSONANT}(?:${HAL}${ZWJ}[රය])*)`, 'gu');

/** Converts FM Abhaya (family) text to Unicode Sinhala NFC; unknown characters are kept. */
export const legacyToUnicode = (text: string): string => {
  // A sign may be typed before the rakaransaya (fYa% and fY%a are both ශ්‍රේ, ls% is ක්‍රි).
  const source = text.replace(/([asS])%/g, '%$1');
  let out = '';
  let pos = 0;
  while (pos < source.length) {
    let matched = false;
    for (let len = Math.min(MAX_GLYPH, source.length - pos); len > 0; len -= 1) {
      const glyph = GLYPHS[source.slice(pos, pos + len)];
      if (glyph !== undefined) {
        out += glyph;
        pos += len;
        matched = true;
        break;
      }
    }
    if (!matched) {
      out += source[pos];
      pos += 1;
    }
  }
  return (
    out
      // A glyph drawn with its hal kirima, then a rakaransaya: the hal belongs to a kombuva (බ්‍රේ).
      .replace(new RegExp(`${HAL}(${HAL}${ZWJ}[රය])`, 'g'), `$1${HAL}`)
      // Move the kombuva after its cluster; ෙ + ා, ෙ + ්, ෙ + ෟ then compose under NFC.
      .replace(
        PREFIX_VOWEL,
        (_all, kombuva: string, cluster: string) =>
          cluster + (kombuva.length === 2 ? '\u0DDB' : '\u0DD9'),
      )
      .replaceAll(KOMBUVA, '\u0DD9')
      .replace(/[\uE002-\uE008]/g, (standIn) => CLUSTERS[standIn] ?? standIn)
      .normalize('NFC')
  );
};

/** Common English words: their share tells an English paragraph from FM bytes. */
const ENGLISH_WORDS = new Set(
  (
    'the of and to a in is it you that he was for on are with as i his they be at one have ' +
    'this from or had by not but what some we can out other were all there when up use your ' +
    'how said an each she which do their if will way about many then them would like so these ' +
    'her see him has more could go come did my no get me our just also into than its only new ' +
    'any may after first well over such even most where why who here should very'
  ).split(' '),
);

/**
 * Byte shapes FM text is full of and English or Singlish words do not have: punctuation keys
 * used as letters inside a word (`o;a;` දත්ත, `ud,s.dj` මාලිගාව), Latin-1 glyph letters (`ú` වි),
 * a capital inside a word (`ixLHdxl` සංඛ්‍යාංක; not the capitals of Singlish typing, N L T D A R
 * and Sh: `guNaya` is Singlish), a kombuva before a consonant key (`fld` කො),
 * the FM full stop `'` after a letter.
 */
const FM_MARK =
  /[\p{L}\d][;,.<>[\]{}|~%:'`^=+!][\p{L}]|[;,.<>[\]{}|~%:`^][\p{L}]|[\u00A0-\u02FF\u2018-\u203A]|^f{1,2}[kjmnvgcp.,;:<>[YNOILKMGPV*]|[A-Za-z;,.<>[\]|]'$/u;
/** A capital inside a word with small letters too (so acronyms like OK and BBC do not count). */
const FM_CAPITAL = /[\p{L}%](?:[BCEFGHIJKMOPQUVWXY]|S(?!h))/u;

const CONSONANT_RANGE = '[\\u0D9A-\\u0DC6]';
/** A run of well-formed Sinhala syllables: consonant clusters with one sign, or a vowel. */
const SINHALA_WORD = new RegExp(
  `^(?:(?:${CONSONANT_RANGE}(?:${HAL}${ZWJ}?${CONSONANT_RANGE})*` +
    `[\\u0DCF-\\u0DDF\\u0DF2\\u0DF3]?${HAL}?|[\\u0D85-\\u0D96])[ංඃ]?)+$`,
  'u',
);

/** True when the FM reading of a word is well-formed Sinhala (English words mostly are not). */
const readsAsSinhala = (word: string): boolean => {
  const unicode = legacyToUnicode(word).replace(/^[^\u0D80-\u0DFF]+|[^\u0D80-\u0DFF]+$/gu, '');
  return unicode.length > 0 && SINHALA_WORD.test(unicode);
};

/**
 * True when text looks typed for an FM (Abhaya family) legacy font rather than English, Singlish
 * or code. Three signals, measured on real FM and English text (legacy-fm.words.ts, and the
 * prose and code of this repository: no false alarm in 3,274 paragraphs):
 *   - read through the FM table, nearly every FM word is a well-formed Sinhala syllable run
 *     (83-100% of words) while English, URLs and code fall apart (at most 75%: a word starting
 *     with a, d, e, s or q starts with a vowel sign, `ee` is two signs in a row...);
 *   - English text has common English words (15% or more);
 *   - at least a fifth of the words carry a byte shape of FM_MARK or FM_CAPITAL (real FM
 *     paragraphs: 60-100%; Singlish such as `mama gedara yanawa`, which also reads as FM: none).
 * Long texts are judged on their first 2,000 words.
 */
export const isLegacySinhala = (text: string): boolean => {
  const plain = text.replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ').replace(/\S+@\S+\.\S+/g, ' ');
  // Mostly Unicode Sinhala already, or code: nothing to convert.
  if (unicodeShare(plain) >= 0.2 || looksLikeCode(plain)) return false;
  const { words, english, sinhala, marked } = measure(plain, 2000);
  if (words === 0) return false;
  if (english / words >= 0.15) return false;
  if (sinhala / words < 0.8) return false;
  return marked / words >= 0.2;
};

/** Share of the letters that are Unicode Sinhala. */
const unicodeShare = (text: string): number => {
  const letters = text.match(/[\p{L}\p{M}]/gu)?.length ?? 0;
  const sinhala = text.match(/[\u0D80-\u0DFF]/g)?.length ?? 0;
  return letters === 0 ? 0 : sinhala / letters;
};

/** Code and style sheets: a line ending in a brace, an arrow, a keyword. */
const looksLikeCode = (text: string): boolean =>
  /[{}]\s*$|=>|\b(?:const|function|return|import|export|class)\b/m.test(text);

/** Counts the Latin-bearing words, the common English ones, those that read as Sinhala in FM. */
const measure = (text: string, limit = Infinity) => {
  let words = 0;
  let english = 0;
  let sinhala = 0;
  let marked = 0;
  for (const word of text.split(/\s+/)) {
    if (words >= limit) break;
    if (!/[A-Za-z]/.test(word)) continue;
    words += 1;
    // `;` is not stripped: in FM it is the letter ත (`we;` is ඇත, not the English "we").
    const bare = word.toLowerCase().replace(/^[("'“‘]+|[.,!?:)"'”’]+$/g, '');
    if (ENGLISH_WORDS.has(bare)) english += 1;
    if (readsAsSinhala(word)) sinhala += 1;
    if (FM_MARK.test(word) || (FM_CAPITAL.test(word) && /[a-z]/.test(word))) marked += 1;
  }
  return { words, english, sinhala, marked };
};

/**
 * Converts a whole legacy document line by line (after isLegacySinhala said yes): lines that
 * read as FM are converted, lines already in Unicode Sinhala or reading as English or code
 * ("Chapter 1", a web address) are kept, so a mixed document comes out whole.
 */
export const legacyDocumentToUnicode = (text: string): string =>
  text
    .split('\n')
    .map((line) => {
      const plain = line.replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ');
      if (unicodeShare(plain) >= 0.2 || looksLikeCode(plain)) return line;
      const { words, english, sinhala } = measure(plain);
      if (words === 0 || english / words >= 0.15 || sinhala / words < 0.6) return line;
      return legacyToUnicode(line);
    })
    .join('\n');
