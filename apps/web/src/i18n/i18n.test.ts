import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { si } from './si.ts';
import { format } from './index.tsx';
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
