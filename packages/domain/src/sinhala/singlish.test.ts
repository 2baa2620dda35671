import { describe, expect, it } from 'vitest';
import { transliterate } from './singlish.ts';
import { SINGLISH_WORDS } from './singlish.words.ts';

describe('transliterate', () => {
  it('gives each vowel sign after a consonant (the scheme table)', () => {
    const table: Array<[string, string]> = [
      ['k', 'ක්'],
      ['ka', 'ක'],
      ['kaa', 'කා'],
      ['kae', 'කැ'],
      ['kA', 'කැ'],
      ['kaae', 'කෑ'],
      ['kAA', 'කෑ'],
      ['ki', 'කි'],
      ['kii', 'කී'],
      ['ku', 'කු'],
      ['kuu', 'කූ'],
      ['ke', 'කෙ'],
      ['kee', 'කේ'],
      ['kei', 'කේ'],
      ['kai', 'කෛ'],
      ['ko', 'කො'],
      ['koo', 'කෝ'],
      ['kau', 'කෞ'],
      ['kRu', 'කෘ'],
      ['kRuu', 'කෲ'],
    ];
    for (const [latin, sinhala] of table) expect(transliterate(latin), latin).toBe(sinhala);
  });

  it('gives the independent vowels at a word start', () => {
    const table: Array<[string, string]> = [
      ['a', 'අ'],
      ['aa', 'ආ'],
      ['ae', 'ඇ'],
      ['A', 'ඇ'],
      ['aae', 'ඈ'],
      ['AA', 'ඈ'],
      ['i', 'ඉ'],
      ['ii', 'ඊ'],
      ['u', 'උ'],
      ['uu', 'ඌ'],
      ['e', 'එ'],
      ['ee', 'ඒ'],
      ['ai', 'ඓ'],
      ['o', 'ඔ'],
      ['oo', 'ඕ'],
      ['au', 'ඖ'],
      ['Ru', 'ඍ'],
    ];
    for (const [latin, sinhala] of table) expect(transliterate(latin), latin).toBe(sinhala);
  });

  it('maps every consonant key', () => {
    const table: Array<[string, string]> = [
      ['ka', 'ක'],
      ['kha', 'ඛ'],
      ['ga', 'ග'],
      ['gha', 'ඝ'],
      ['nnga', 'ඟ'],
      ['cha', 'ච'],
      ['ca', 'ච'],
      ['chha', 'ඡ'],
      ['ja', 'ජ'],
      ['jha', 'ඣ'],
      ['kna', 'ඤ'],
      ['gna', 'ඥ'],
      ['ta', 'ට'],
      ['Ta', 'ඨ'],
      ['da', 'ඩ'],
      ['Da', 'ඪ'],
      ['nnda', 'ඬ'],
      ['tha', 'ත'],
      ['Tha', 'ථ'],
      ['dha', 'ද'],
      ['Dha', 'ධ'],
      ['nndha', 'ඳ'],
      ['na', 'න'],
      ['Na', 'ණ'],
      ['pa', 'ප'],
      ['pha', 'ඵ'],
      ['ba', 'බ'],
      ['bha', 'භ'],
      ['ma', 'ම'],
      ['mmba', 'ඹ'],
      ['ya', 'ය'],
      ['ra', 'ර'],
      ['la', 'ල'],
      ['La', 'ළ'],
      ['wa', 'ව'],
      ['va', 'ව'],
      ['sha', 'ශ'],
      ['Sha', 'ෂ'],
      ['sa', 'ස'],
      ['ha', 'හ'],
      ['fa', 'ෆ'],
    ];
    for (const [latin, sinhala] of table) expect(transliterate(latin), latin).toBe(sinhala);
  });

  it('joins rakaransaya and yansaya with the zero-width joiner, and writes ශ්‍රී', () => {
    expect(transliterate('kra')).toBe('ක\u0DCA\u200Dර');
    expect(transliterate('kya')).toBe('ක\u0DCA\u200Dය');
    expect(transliterate('praadheeshiiya')).toBe('ප්‍රාදේශීය');
    for (const spelling of ['sri', 'shri', 'srii', 'shrii']) {
      expect(transliterate(spelling)).toBe('ශ\u0DCA\u200Dරී');
    }
    expect(transliterate('sri laxkaawa')).toBe('ශ්‍රී ලංකාව');
  });

  it('writes ං for x and for ng that closes a syllable, ඃ for H', () => {
    expect(transliterate('laxkaawa')).toBe('ලංකාව');
    expect(transliterate('langkaawa')).toBe('ලංකාව');
    expect(transliterate('sinhala')).toBe('සිංහල');
    expect(transliterate('lankaawa')).toBe('ලංකාව');
    expect(transliterate('pansala')).toBe('පන්සල');
    expect(transliterate('singhala')).toBe('සිංහල');
    expect(transliterate('dhuHkhaya')).toBe('දුඃඛය');
    expect(transliterate('nangi')).toBe('නංගි');
    expect(transliterate('gannga')).toBe('ගඟ');
    expect(transliterate('gangaa')).toBe('ගංගා');
  });

  it('passes digits, punctuation, spaces and non-Latin text through', () => {
    expect(transliterate('amma, 2 thaaththaa!\n')).toBe('අම්ම, 2 තාත්තා!\n');
    expect(transliterate('ගෙදර 123 ?')).toBe('ගෙදර 123 ?');
    expect(transliterate('')).toBe('');
  });

  it('reads a capital with no meaning of its own as its small letter', () => {
    expect(transliterate('Gedhara')).toBe('ගෙදර');
    expect(transliterate('Hema')).toBe('හෙම');
    expect(transliterate('Kamal')).toBe('කමල්');
    expect(transliterate('AMMA')).toBe('අම්ම');
    expect(transliterate('I am OK')).toBe('ඉ අම් ඔක්');
  });

  it(`transliterates ${SINGLISH_WORDS.length} real words`, () => {
    expect(SINGLISH_WORDS.length).toBeGreaterThanOrEqual(200);
    for (const [latin, sinhala] of SINGLISH_WORDS) {
      expect(transliterate(latin), latin).toBe(sinhala.normalize('NFC'));
    }
  });

  it('is fast: a long paragraph converts well under a millisecond per word', () => {
    const paragraph = SINGLISH_WORDS.map(([latin]) => latin).join(' ');
    const started = Date.now();
    for (let i = 0; i < 20; i += 1) transliterate(paragraph);
    const perWord = (Date.now() - started) / 20 / SINGLISH_WORDS.length;
    // Generous for a busy CI machine; typically about 0.05 ms.
    expect(perWord).toBeLessThan(1);
  });
});
