import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { si } from './si.ts';
import { format, translator } from './index.tsx';
import { formatDayMonth } from './dates.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogue', () => {
  it('has a Sinhala text for every English key, with the same placeholders', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(si[key], key).toBeTruthy();
      expect(placeholders(si[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(format('Episode {n} of {total}', { n: 2, total: 8 })).toBe('Episode 2 of 8');
    expect(format('Hello {who}', {})).toBe('Hello {who}');
  });
});

describe('counted messages', () => {
  const enT = translator('en');
  const siT = translator('si');

  it.each([
    [0, '0 followers in all'],
    [1, '1 follower in all'],
    [2, '2 followers in all'],
    [21, '21 followers in all'],
  ])('say %i in English by its plural form', (n, expected) => {
    expect(enT('stats.noteFollowers', { n })).toBe(expected);
  });

  it('choose the form by `count` when `n` is shown formatted', () => {
    expect(enT('author.followers', { count: 1, n: '1' })).toBe('1 follower');
    expect(enT('author.followers', { count: 1200, n: '1.20K' })).toBe('1.20K followers');
    expect(enT('rating.starsValue', { n: 0.5 })).toBe('0.5 stars');
    // Decimals shown are heard: 'Average 1.0 claps', as English says it.
    expect(enT('rating.averageClaps', { count: 1, n: '1.0' })).toBe('Average 1.0 claps');
    expect(enT('sub.codeSent', { mobile: '077', minutes: 1, count: 1 })).toMatch(/1 minute\.$/);
  });

  it('follow the Sinhala rules too (0 and 1 share a form there)', () => {
    const rules = new Intl.PluralRules('si');
    expect([rules.select(0), rules.select(1), rules.select(2)]).toEqual(['one', 'one', 'other']);
    expect(siT('author.followers', { n: 0 })).toBe(si['author.followers#one'].replace('{n}', '0'));
    expect(siT('author.followers', { n: 2 })).toBe(
      si['author.followers#other'].replace('{n}', '2'),
    );
  });

  it('give every counted message a form for each plural category of both languages', () => {
    const bases = Object.keys(en)
      .filter((k) => k.endsWith('#other'))
      .map((k) => k.slice(0, -'#other'.length));
    expect(bases.length).toBeGreaterThan(20);
    for (const [lang, texts] of [
      ['en', en],
      ['si', si],
    ] as const) {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const base of bases)
        for (const c of categories)
          expect(
            (texts as Record<string, string>)[`${base}#${c}`],
            `${lang} ${base}#${c}`,
          ).toBeTruthy();
    }
  });

  it('leave no English count of a noun outside the plural forms ("1 followers")', () => {
    // A number placeholder followed by a plural noun is a count that must agree with its number.
    const countOfNoun =
      /\{(?:n|count|minutes|reads|total|first|last)\} (?!of\b|to\b|and\b|in\b)[a-z]+s\b/;
    const offenders = Object.entries(en)
      .filter(([key, text]) => !key.includes('#') && countOfNoun.test(text))
      .map(([key]) => key);
    expect(offenders).toEqual([]);
  });
});

describe('formatDayMonth', () => {
  it.each([
    ['2025-11-28T00:00:00Z', 'en', '28 November'],
    ['2025-11-28T00:00:00Z', 'si', 'නොවැම්බර් 28'],
    // 20:00 UTC is already the next day in Colombo (UTC+05:30).
    ['2025-12-31T20:00:00Z', 'en', '1 January'],
    ['not a date', 'en', ''],
  ] as const)('%s in %s', (iso, lang, expected) => {
    expect(formatDayMonth(iso, lang)).toBe(expected);
  });
});
