/**
 * Test helper, not exported from the package: writes Unicode Sinhala the way an FM Abhaya
 * typist would (kombuva before the consonant, ා after it...). legacy-fm.test.ts converts the
 * result back to check every consonant and vowel-sign combination round-trips.
 */

const CONSONANT_KEYS: Readonly<Record<string, string>> = {
  ක: 'l',
  ඛ: 'L',
  ග: '.',
  ඝ: '>',
  ඞ: 'X',
  ඟ: 'Õ',
  ච: 'p',
  ඡ: 'P',
  ජ: 'c',
  ඣ: '®',
  ඤ: '[',
  ඥ: '{',
  ට: 'g',
  ඨ: 'G',
  ඩ: 'v',
  ඪ: 'V',
  ණ: 'K',
  ඬ: '~',
  ත: ';',
  ථ: ':',
  ද: 'o',
  ධ: 'O',
  න: 'k',
  ඳ: '|',
  ප: 'm',
  ඵ: 'M',
  බ: 'n',
  භ: 'N',
  ම: 'u',
  ඹ: 'U',
  ය: 'h',
  ර: 'r',
  ල: ',',
  ව: 'j',
  ශ: 'Y',
  ෂ: 'I',
  ස: 'i',
  හ: 'y',
  ළ: '<',
  ෆ: '*',
};

const VOWEL_KEYS: Readonly<Record<string, string>> = {
  අ: 'w',
  ආ: 'wd',
  ඇ: 'we',
  ඈ: 'wE',
  ඉ: 'b',
  ඊ: 'B',
  උ: 'W',
  ඌ: 'W!',
  ඍ: 'R',
  එ: 't',
  ඒ: 'ta',
  ඓ: 'ft',
  ඔ: 'T',
  ඕ: '´',
  ඖ: 'T!',
  'ං': 'x',
  'ඃ': '#',
};

/** Signs typed after the consonant, and those typed around it (kombuva before, rest after). */
const AFTER: Readonly<Record<string, string>> = {
  '\u0DCF': 'd',
  '\u0DD0': 'e',
  '\u0DD1': 'E',
  '\u0DD2': 's',
  '\u0DD3': 'S',
  '\u0DD4': 'q',
  '\u0DD6': 'Q',
  '\u0DD8': 'D',
  '\u0DF2': 'DD',
  '\u0DDF': '!',
  '\u0DCA': 'a',
};
const AROUND: Readonly<Record<string, readonly [before: string, after: string]>> = {
  '\u0DD9': ['f', ''],
  '\u0DDA': ['f', 'a'],
  '\u0DDB': ['ff', ''],
  '\u0DDC': ['f', 'd'],
  '\u0DDD': ['f', 'da'],
  '\u0DDE': ['f', '!'],
};

const RA_GLYPHS: Readonly<Record<string, string>> = {
  '\u0DD4': 're',
  '\u0DD6': 'rE',
  '\u0DD0': '/',
  '\u0DD1': '?',
};

/** Writes NFC Unicode Sinhala as FM Abhaya bytes (Latin text passes through). */
export const unicodeToFm = (text: string): string => {
  const chars = Array.from(text.normalize('NFC'));
  let out = '';
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i]!;
    const consonant = CONSONANT_KEYS[ch];
    if (consonant === undefined) {
      out += VOWEL_KEYS[ch] ?? ch;
      i += 1;
      continue;
    }
    let cluster = consonant;
    i += 1;
    // Rakaransaya / yansaya: ් + ZWJ + ර/ය, or the plain ් + ර/ය older text uses.
    const joined = chars[i] === '\u0DCA' && chars[i + 1] === '\u200D' ? 2 : 0;
    const conj = chars[i + (joined || 1)];
    // Only with the joiner: ් + ර without it is a hal kirima and a ර (දුම්රිය), typed `a` + `r`.
    if (joined && (conj === 'ර' || conj === 'ය')) {
      cluster += conj === 'ර' ? '%' : 'H';
      i += (joined || 1) + 1;
    }
    const sign = chars[i];
    const around = sign === undefined ? undefined : AROUND[sign];
    if (around) {
      out += around[0] + cluster + around[1];
      i += 1;
      continue;
    }
    const after = sign === undefined ? undefined : AFTER[sign];
    // රු, රූ, රැ and රෑ are single glyphs in these fonts.
    const ra = ch === 'ර' && cluster === 'r' && sign !== undefined ? RA_GLYPHS[sign] : undefined;
    if (ra !== undefined) {
      out += ra;
      i += 1;
      continue;
    }
    out += cluster + (after ?? '');
    if (after !== undefined) i += 1;
  }
  return out;
};
