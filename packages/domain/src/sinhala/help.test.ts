import { describe, expect, it } from 'vitest';
import { SINGLISH_HELP } from './help.ts';
import { transliterate } from './singlish.ts';

describe('SINGLISH_HELP', () => {
  it('shows every example exactly as the typing turns it into Sinhala', () => {
    for (const row of SINGLISH_HELP) {
      const [letter, example] = row.sinhala.split(' · ');
      expect(letter).toMatch(/^[\u0D80-\u0DFF\u200D]+$/);
      if (!example) continue;
      // "sri laxkaa ශ්‍රී ලංකා": the Latin words, then the Sinhala words.
      const split = example.search(/[\u0D80-\u0DFF]/);
      const latin = example.slice(0, split).trim();
      const sinhala = example.slice(split);
      expect(transliterate(latin), row.keys).toBe(sinhala);
    }
  });
  it('lists each key once', () => {
    const keys = SINGLISH_HELP.flatMap((row) => row.keys.split(' / '));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
