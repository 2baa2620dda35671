import { describe, expect, it } from 'vitest';
import { formatFullDate } from './format.ts';

describe('formatFullDate', () => {
  it.each([
    ['2026-11-28T00:00:00Z', 'en', '28 November 2026'],
    ['2026-11-28T00:00:00Z', 'si', '2026 නොවැම්බර් 28'],
    // 20:00 UTC on New Year's Eve is already the next year in Colombo.
    ['2026-12-31T20:00:00Z', 'en', '1 January 2027'],
    ['soon', 'en', ''],
  ] as const)('%s in %s', (iso, lang, expected) => {
    expect(formatFullDate(iso, lang)).toBe(expected);
  });
});
