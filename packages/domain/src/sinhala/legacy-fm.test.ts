import { describe, expect, it } from 'vitest';
import { isLegacySinhala, legacyToUnicode } from './legacy-fm.ts';
import { LEGACY_WORDS, LEGACY_PARAGRAPHS, NOT_LEGACY } from './legacy-fm.words.ts';

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
  it(`leaves ${NOT_LEGACY.length} English paragraphs, URLs and code alone`, () => {
    for (const text of NOT_LEGACY) expect(isLegacySinhala(text), text).toBe(false);
  });
});
