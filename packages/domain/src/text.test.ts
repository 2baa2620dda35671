import { describe, expect, it } from 'vitest';
import { looksSinhala, toSearchKey, toStored, truncateGraphemes } from './text.ts';

describe('Sinhala text', () => {
  it('stores NFC and keeps the zero-width joiner', () => {
    const typed = 'ශ්\u200Dරී ලංකාව';
    expect(toStored(typed)).toContain('\u200D');
    expect(toStored('e\u0301')).toBe('é');
  });
  it('folds the joiner out of the search key so both spellings match', () => {
    expect(toSearchKey('ශ්\u200Dරී')).toBe(toSearchKey('ශ්රී'));
    expect(toSearchKey('  The LANTERN ')).toBe('the lantern');
  });
  it('truncates at grapheme boundaries, never inside a conjunct', () => {
    const text = 'ශ්‍රී ලංකාවේ කතාව';
    expect(truncateGraphemes(text, 4, '…')).toBe('ශ්‍රී ලං…');
    // One cluster would end in the joiner: the half conjunct is dropped, not shown broken.
    expect(truncateGraphemes(text, 1, '…')).toBe('…');
    expect(truncateGraphemes(text, 2, '…')).toBe('ශ්‍රී…');
    expect(truncateGraphemes('short', 10)).toBe('short');
  });
  it('tells Sinhala text from English', () => {
    expect(looksSinhala('මගේ කතාව')).toBe(true);
    expect(looksSinhala('My story')).toBe(false);
  });
});
