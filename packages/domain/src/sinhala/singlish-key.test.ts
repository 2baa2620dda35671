import { describe, expect, it } from 'vitest';
import { singlishKey, singlishKeys } from './singlish-key.ts';
import { KEY_MEETS, KEY_APART, KEY_NEAR } from './singlish-key.words.ts';
import { SINGLISH_WORDS } from './singlish.words.ts';

/** pg_trgm's similarity(): trigrams of each word padded '  word ', Jaccard of the two sets. */
const trigramSimilarity = (a: string, b: string): number => {
  const grams = (text: string) => {
    const set = new Set<string>();
    for (const word of text.split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
      const padded = `  ${word} `;
      for (let i = 0; i + 3 <= padded.length; i += 1) set.add(padded.slice(i, i + 3));
    }
    return set;
  };
  const one = grams(a);
  const other = grams(b);
  const shared = [...one].filter((gram) => other.has(gram)).length;
  return shared / (one.size + other.size - shared);
};

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
    // A stored word holds all its keys (singlishKeys); a query's one key must be among them.
    for (const [sinhala, ...typed] of KEY_MEETS) {
      const keys = singlishKeys(sinhala);
      for (const latin of typed)
        expect(keys, `${sinhala} / ${latin}`).toContain(singlishKey(latin));
    }
  });

  it(`meets for all ${SINGLISH_WORDS.length - 1} words typed by the transliteration scheme`, () => {
    // The typing scheme and the search key agree: what one types with the toggle off finds the
    // Sinhala one would have typed with it on (x for ං is the one key the folding leaves alone),
    // ee for ේ and oo for ෝ included.
    for (const [latin, sinhala] of SINGLISH_WORDS) {
      if (latin.includes('x')) continue;
      expect(singlishKeys(sinhala), latin).toContain(singlishKey(latin));
    }
  });

  it.each([
    // Casual spelling doubles a vowel for a long one: ee for ී, oo for ූ, aa for ා.
    ['මීදුම්', 'meedum', 'midum'],
    ['මීදුම', 'meeduma', 'miduma'],
    ['සංගීතය', 'sangeethaya', 'sangithaya'],
    ['ජීවිතය', 'jeewithaya', 'jeevitaya'],
    ['ශ්\u200Dරී ලංකා', 'shree lanka', 'sri lanka'],
    ['පූසා', 'poosa', 'pusa'],
    ['සූදු', 'soodu', 'sudu'],
    ['ආදරණීය', 'aadharaneeya', 'adaraniya'],
    ['මහාචාර්ය', 'mahaachaarya', 'mahacharya'],
  ])('%s: a doubled vowel (%s) meets the single one (%s)', (sinhala, doubled, single) => {
    expect(singlishKey(doubled)).toBe(singlishKey(sinhala));
    expect(singlishKey(single)).toBe(singlishKey(sinhala));
  });

  it.each([
    // The typing scheme's ee is ේ and oo is ෝ: such words keep their own key and gain the other.
    ['මේසය', ['mesaya', 'meesaya']],
    ['තේ', ['te', 'thee']],
    ['රෝස', ['rosa', 'roosa']],
    ['ඒක', ['eka', 'eeka']],
    ['ඕනෑ', ['one', 'oone']],
    ['හපුතලේ මීදුම', ['haputale meeduma', 'haputhalee miduma']],
  ] as const)('%s is found as %j', (sinhala, typed) => {
    const keys = singlishKeys(sinhala);
    expect(keys[0]).toBe(singlishKey(sinhala));
    for (const latin of typed) expect(keys, latin).toContain(singlishKey(latin));
    // A word with no ේ or ෝ has one key.
    expect(singlishKeys('මීදුම')).toEqual([singlishKey('මීදුම')]);
  });

  it(`finds ${KEY_NEAR.length} casual spellings and typos by trigram similarity (pg_trgm 0.3)`, () => {
    for (const [sinhala, typed] of KEY_NEAR) {
      const similarity = trigramSimilarity(singlishKey(sinhala), singlishKey(typed));
      expect(similarity, `${sinhala} / ${typed}`).toBeGreaterThanOrEqual(0.3);
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
    expect(singlishKey('the moon')).toBe(singlishKey('the Moon'));
  });
});
