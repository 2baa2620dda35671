import { describe, expect, it } from 'vitest';
import { isLegacySinhala, legacyDocumentToUnicode, legacyToUnicode } from './legacy-fm.ts';
import { LEGACY_WORDS, LEGACY_PARAGRAPHS, NOT_LEGACY } from './legacy-fm.words.ts';
import { unicodeToFm } from './legacy-fm.encode.ts';
import { SINGLISH_WORDS } from './singlish.words.ts';

const CONSONANTS = Array.from('කඛගඝඞඟචඡජඣඤඥටඨඩඪණඬතථදධනඳපඵබභමඹයරලවශෂසහළෆ');
const SIGNS = [
  '',
  '\u0DCA',
  ...Array.from(
    '\u0DCF\u0DD0\u0DD1\u0DD2\u0DD3\u0DD4\u0DD6\u0DD8\u0DD9\u0DDA\u0DDB\u0DDC\u0DDD\u0DDE',
  ),
];

describe('legacyToUnicode', () => {
  it('moves the kombuva typed before its consonant after it', () => {
    expect(legacyToUnicode('f.dvq')).toBe('ගොඩු');
    expect(legacyToUnicode('fld')).toBe('කො');
    expect(legacyToUnicode('flda')).toBe('කෝ');
    expect(legacyToUnicode('fla')).toBe('කේ');
    expect(legacyToUnicode('fl!')).toBe('කෞ');
    expect(legacyToUnicode('ffl')).toBe('කෛ');
    expect(legacyToUnicode('fm%')).toBe('ප්\u200Dරෙ');
    expect(legacyToUnicode('fY%a')).toBe('ශ්\u200Dරේ');
    expect(legacyToUnicode('fYa%')).toBe('ශ්\u200Dරේ');
    expect(legacyToUnicode('fCIH')).toBe('ක්ෂ්\u200Dයෙ');
  });

  it('writes rakaransaya, yansaya and ශ්‍රී with the joiner', () => {
    expect(legacyToUnicode('l%u')).toBe('ක්\u200Dරම');
    expect(legacyToUnicode('jdlH')).toBe('වාක්\u200Dය');
    expect(legacyToUnicode('Y%S')).toBe('ශ්\u200Dරී');
    expect(legacyToUnicode('›')).toBe('ශ්\u200Dරී');
  });

  it(`converts ${LEGACY_WORDS.length} real words`, () => {
    expect(LEGACY_WORDS.length).toBeGreaterThanOrEqual(100);
    for (const [fm, unicode] of LEGACY_WORDS) {
      expect(legacyToUnicode(fm), fm).toBe(unicode.normalize('NFC'));
    }
  });

  it(`converts ${LEGACY_PARAGRAPHS.length} paragraphs from real documents`, () => {
    expect(LEGACY_PARAGRAPHS.length).toBeGreaterThanOrEqual(5);
    for (const [fm, unicode] of LEGACY_PARAGRAPHS) {
      expect(legacyToUnicode(fm)).toBe(unicode.normalize('NFC'));
    }
  });

  it('reads the glyphs drawn as one: conjuncts, repaya, letters with their sign', () => {
    const table: Array<[string, string]> = [
      ['ø', 'ද්\u200Dර'],
      ['fødaKh', 'ද්\u200Dරෝණය'],
      ['Ë', 'ක්ෂ'],
      ['CI', 'ක්ෂ'],
      ['wOHdmkh', 'අධ්\u200Dයාපනය'],
      ['O¾uh', 'ධර්මය'],
      ['ld¾hh', 'කාර්යය'],
      ['ÿ', 'දු'],
      ['È', 'දි'],
      ['§', 'දී'],
      ['ß', 'රි'],
      ['Í', 'රී'],
      ['/', 'රැ'],
      ['re', 'රු'],
      ['rE', 'රූ'],
      ['ú', 'වි'],
      ['ù', 'වී'],
      ['ñ', 'මි'],
      ['ï', 'ම්'],
      ['fï', 'මේ'],
      ['fõ', 'වේ'],
      ['¿', 'ළු'],
      ['÷', 'ඳු'],
      ['‚', 'ණි'],
      ['wxl', 'අංක'],
      ['ÿ#L', 'දුඃඛ'],
      ['l%sIs', 'ක්\u200Dරිෂි'],
      ['fl!', 'කෞ'],
      ['ft', 'ඓ'],
      ['ta', 'ඒ'],
      ['wE', 'ඈ'],
      ['T!', 'ඖ'],
      ['W!', 'ඌ'],
      ['Ta', 'ඕ'],
      ['ls%mq', 'ක්\u200Dරිපු'],
      ['Š', 'ද්ධ'],
      ['nqŠ', 'බුද්ධ'],
      ['f‡', 'න්දෙ'],
      ['ˆ', 'න්දා'],
      ['…', 'ත්ව'],
      ['¨', 'ලු'],
      ['Æ', 'ලූ'],
      ['×', 'ඥා'],
      ['Ø', 'ඤා'],
      ['ä', 'ඩි'],
      ['ã', 'ඩී'],
      ['â', 'ඩ්'],
      ['`o', 'ඳ'],
      ['`.', 'ඟ'],
      ['?', 'රෑ'],
      ['@', '?'],
    ];
    for (const [fm, unicode] of table)
      expect(legacyToUnicode(fm), fm).toBe(unicode.normalize('NFC'));
  });

  it('round-trips every consonant with every vowel sign, plain, with rakaransaya and yansaya', () => {
    let checked = 0;
    for (const consonant of CONSONANTS) {
      for (const join of ['', '\u0DCA\u200Dර', '\u0DCA\u200Dය']) {
        for (const sign of SIGNS) {
          // ර takes neither rakaransaya nor yansaya on itself.
          if (consonant === 'ර' && join) continue;
          const syllable = (consonant + join + sign).normalize('NFC');
          expect(legacyToUnicode(unicodeToFm(syllable)), syllable).toBe(syllable);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(1800);
  });

  it('round-trips the 268 Sinhala words of the typing tests', () => {
    for (const [, sinhala] of SINGLISH_WORDS) {
      expect(legacyToUnicode(unicodeToFm(sinhala))).toBe(sinhala.normalize('NFC'));
    }
  });

  it('keeps line breaks and unknown characters', () => {
    expect(legacyToUnicode('wuav\nwmsp')).toBe('අම්ඩ\nඅපිච');
    expect(legacyToUnicode('2024 -')).toBe('2024 -');
    expect(legacyToUnicode('ගෙදර')).toBe('ගෙදර');
  });
});

describe('isLegacySinhala', () => {
  it('recognises the paragraphs and sentences typed for FM fonts', () => {
    for (const [fm] of LEGACY_PARAGRAPHS) expect(isLegacySinhala(fm), fm).toBe(true);
  });
  it('recognises Sinhala prose written the way FM typists type it', () => {
    for (const [, unicode] of LEGACY_PARAGRAPHS) {
      expect(isLegacySinhala(unicodeToFm(unicode)), unicode).toBe(true);
    }
    const story = SINGLISH_WORDS.slice(0, 40)
      .map(([, sinhala]) => sinhala)
      .join(' ');
    expect(isLegacySinhala(unicodeToFm(story))).toBe(true);
  });

  it(`leaves ${NOT_LEGACY.length} English paragraphs, Singlish, URLs and code alone`, () => {
    for (const text of NOT_LEGACY) expect(isLegacySinhala(text), text).toBe(false);
  });

  it('leaves text that is mostly Unicode Sinhala alone', () => {
    expect(isLegacySinhala('ශ්‍රී ලංකා ප්‍රජාතාන්ත්‍රික සමාජවාදී ජනරජය')).toBe(false);
    expect(isLegacySinhala('මගේ ගෙදර o<od ud,s.dj')).toBe(false);
  });

  it('needs a byte shape English and Singlish never make, even for one word', () => {
    expect(isLegacySinhala('amma')).toBe(false);
    expect(isLegacySinhala('guNaya')).toBe(false);
    expect(isLegacySinhala('wïud')).toBe(true);
    expect(isLegacySinhala(';x')).toBe(true);
    expect(isLegacySinhala("lr we;'")).toBe(true);
  });
});

describe('legacyDocumentToUnicode', () => {
  it('converts the FM lines of a mixed document and keeps the English and Unicode ones', () => {
    const document = [
      'Chapter 1',
      "o<od ud,s.dj msysgd we;s uykqjr k.rhu hqfkiafldaj úiska f,dal Wreuhla f,i kï lr we;'",
      '',
      'ශ්‍රී ලංකාව',
      'Visit https://example.com for the original.',
      'Y%S ,xld m%cd;dka;%sl iudcjd§ ckrcfha .eiÜ m;%h',
    ].join('\n');
    expect(legacyDocumentToUnicode(document)).toBe(
      [
        'Chapter 1',
        'දළදා මාලිගාව පිහිටා ඇති මහනුවර නගරයම යුනෙස්කෝව විසින් ලෝක උරුමයක් ලෙස නම් කර ඇත.',
        '',
        'ශ්‍රී ලංකාව',
        'Visit https://example.com for the original.',
        LEGACY_PARAGRAPHS.find(([fm]) => fm.startsWith('Y%S ,xld m%cd'))![1],
      ].join('\n'),
    );
  });
});
