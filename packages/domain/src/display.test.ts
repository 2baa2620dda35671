import { describe, expect, it } from 'vitest';
import {
  clampRating,
  displayCommentRating,
  displayUsername,
  formatCount,
  formatCreatedDate,
  sriLankaDay,
} from './display.ts';
import { isPreviewAccepted, isSuccess } from './envelope.ts';

describe('formatCount (SPEC.md 5: 1000 or more as thousands, two decimals, K)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1.00K'],
    [1234, '1.23K'],
    [1239, '1.23K'],
    [15_500, '15.50K'],
    [1_234_567, '1234.56K'],
  ])('%i -> %s', (n, shown) => expect(formatCount(n)).toBe(shown));
  it('never shows NaN', () => expect(formatCount(Number.NaN)).toBe('0'));
});

describe('displayUsername (SPEC.md 5: capitalised, 12 characters)', () => {
  it.each([
    ['kasun', 'Kasun'],
    ['tharushi perera', 'Tharushi per'],
    ['  amaya', 'Amaya'],
    ['', ''],
    // The first grapheme is a letter and its mark, or a letter outside the BMP: all of it shown.
    ['e\u0301mile', 'E\u0301mile'],
    ['\u{10428}ee', '\u{10400}ee'],
    ['කසුන්', 'කසුන්'],
  ])('%j -> %j', (name, shown) => expect(displayUsername(name)).toBe(shown));
  it('counts a Sinhala conjunct with its joiner as one character and never splits it', () => {
    const name = 'ශ්‍රීමතී ප්‍රියංකා ජයසූරිය';
    const shown = displayUsername(name);
    expect(shown.endsWith('\u200D')).toBe(false);
    expect(name.startsWith(shown)).toBe(true);
    const count = [...new Intl.Segmenter('si', { granularity: 'grapheme' }).segment(shown)].length;
    expect(count).toBeGreaterThanOrEqual(11);
    expect(count).toBeLessThanOrEqual(12);
  });
});

describe('ratings (SPEC.md 4, 5)', () => {
  it.each([
    [-1, 0],
    [0, 0],
    [2.2, 2],
    [2.3, 2.5],
    [4.8, 5],
    [9, 5],
  ])('clampRating(%d) = %d', (r, v) => expect(clampRating(r)).toBe(v));
  it.each([
    [5, 5],
    [4.9, 4.5],
    [4.76, 4.5],
    [3.3, 3.5],
  ])('a comment rated %d shows %d', (r, v) => expect(displayCommentRating(r)).toBe(v));
});

describe('result codes (SPEC.md 5)', () => {
  it('success is exactly code 0', () => {
    expect(isSuccess(0)).toBe(true);
    for (const c of [1, -1, '0', null, undefined]) expect(isSuccess(c)).toBe(false);
  });
  it('a preview accepts any code of 0 or above', () => {
    expect(isPreviewAccepted(0)).toBe(true);
    expect(isPreviewAccepted(3)).toBe(true);
    expect(isPreviewAccepted(-1)).toBe(false);
    expect(isPreviewAccepted('0')).toBe(false);
  });
});

describe('formatCreatedDate', () => {
  it('writes Sri Lanka time as DD-MM-YY hh:mm:ss a', () => {
    expect(formatCreatedDate('2026-11-22T03:35:07Z')).toBe('22-11-26 09:05:07 am');
    expect(formatCreatedDate('2026-11-22T18:29:59Z')).toBe('22-11-26 11:59:59 pm');
    expect(formatCreatedDate('2026-11-22T18:30:00Z')).toBe('23-11-26 12:00:00 am');
    expect(formatCreatedDate('2026-11-22T06:30:00Z')).toBe('22-11-26 12:00:00 pm');
  });
  it('turns the day over at midnight in Colombo, not in UTC', () => {
    expect(sriLankaDay('2026-11-22T18:29:59Z')).toBe('2026-11-22');
    expect(sriLankaDay('2026-11-22T18:30:00Z')).toBe('2026-11-23');
  });
});
