import { describe, expect, it } from 'vitest';
import { singlishKey } from './singlish-key.ts';
import { KEY_MEETS, KEY_APART } from './singlish-key.words.ts';

describe('singlishKey', () => {
  it('folds Sinhala and the ways people type it in Latin to one key', () => {
    expect(singlishKey('ගෙදර')).toBe('gedara');
    for (const typed of ['gedara', 'gedhara', 'gedaraa', 'Gedhara', 'GEDARA']) {
      expect(singlishKey(typed), typed).toBe('gedara');
    }
    const amma = singlishKey('අම්මා');
    for (const typed of ['amma', 'ammaa', 'Amma']) expect(singlishKey(typed)).toBe(amma);
  });

  it(`meets for ${KEY_MEETS.length} Sinhala words and their Latin spellings`, () => {
    for (const [sinhala, ...typed] of KEY_MEETS) {
      const key = singlishKey(sinhala);
      for (const latin of typed) expect(singlishKey(latin), `${sinhala} / ${latin}`).toBe(key);
    }
  });

  it(`keeps ${KEY_APART.length} different words apart`, () => {
    for (const [one, other] of KEY_APART) {
      expect(singlishKey(one), `${one} / ${other}`).not.toBe(singlishKey(other));
    }
  });

  it('drops the joiners and the hal kirima, keeps words apart, collapses spaces', () => {
    expect(singlishKey('ශ්\u200Dරී ලංකාව')).toBe(singlishKey('ශ්රී ලංකාව'));
    expect(singlishKey('  මගේ   කතාව, ඔයාගේ!  ')).toBe('mage katawa oyage');
    expect(singlishKey('mage kathaawa')).toBe('mage katawa');
  });

  it('folds English through the same Latin rules, so English still meets English', () => {
    expect(singlishKey('The Lantern')).toBe(singlishKey('the lantern'));
    expect(singlishKey('The Lantern')).toBe('te lantern');
    expect(singlishKey('Phone')).toBe(singlishKey('pone'));
    expect(singlishKey('coffee and tea')).toBe('cofi and tea');
  });
});
