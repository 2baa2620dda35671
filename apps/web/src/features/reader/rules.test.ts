import { describe, expect, it } from 'vitest';
import { isWindowShrunk, pageSlots } from './rules.ts';

describe('isWindowShrunk', () => {
  const base = {
    innerWidth: 1280,
    innerHeight: 700,
    outerWidth: 1280,
    outerHeight: 800,
    userAgent: 'Chrome',
  };
  it.each([
    [{}, false],
    [{ innerWidth: 1000 }, true], // below 85% of 1280 (1088)
    [{ innerWidth: 1090 }, false],
    [{ innerHeight: 500 }, true], // below 65% of 800 (520)
    [{ innerHeight: 520 }, false],
    [{ innerWidth: 300, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)' }, false],
    [{ innerWidth: 300, outerWidth: 0 }, false],
    [{ innerHeight: 100, outerHeight: 0 }, false],
  ])('%o -> %s', (change, expected) => {
    expect(isWindowShrunk({ ...base, ...change })).toBe(expected);
  });
});

describe('pageSlots', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 5, [1, 2, 'gap', 5]],
    [3, 5, [1, 2, 3, 4, 5]],
    [5, 10, [1, 'gap', 4, 5, 6, 'gap', 10]],
    [10, 10, [1, 'gap', 9, 10]],
    [2, 0, []],
  ])('current %i of %i', (current, total, expected) => {
    expect(pageSlots(current, total)).toEqual(expected);
  });
});
