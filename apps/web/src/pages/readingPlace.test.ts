import { describe, expect, it } from 'vitest';
import { continuePart, readingPlace, resumeHash } from './readingPlace.ts';

const at = (partNumber: number, position: number) => ({
  partNumber,
  position,
  updatedAt: '2026-01-01T00:00:00Z',
});

describe('continuePart', () => {
  it.each([
    ['no progress starts at part 1', null, 5, 1],
    ['halfway through part 3 stays there', at(3, 0.5), 5, 3],
    ['the end of part 3 goes on to part 4', at(3, 0.97), 5, 4],
    ['the end of the last part stays on it', at(5, 1), 5, 5],
    ['a part since withdrawn is capped at the last one out', at(8, 0.2), 5, 5],
    ['a story with no parts counted still opens part 1', at(1, 1), 0, 1],
  ] as const)('%s', (_name, progress, parts, expected) => {
    expect(continuePart(progress, parts)).toBe(expected);
  });
});

describe('resumeHash', () => {
  it('brings the reader back inside the part they were reading', () => {
    expect(resumeHash(at(3, 0.4567), 3)).toBe('#at=0.457');
  });
  it('starts from the top of a new part, a part barely begun, or one finished', () => {
    expect(resumeHash(at(3, 0.97), 4)).toBe('');
    expect(resumeHash(at(3, 0.01), 3)).toBe('');
    expect(resumeHash(at(5, 0.99), 5)).toBe('');
    expect(resumeHash(null, 1)).toBe('');
  });
});

describe('readingPlace (what /bookmarks/ and home both say)', () => {
  it('names the part Continue opens, not the part last touched', () => {
    // Finished part 1 of 4: both lists say part 2 and open it from the top.
    expect(readingPlace(7, at(1, 0.99), 4)).toEqual({
      part: 2,
      total: 4,
      href: '/details/7/2/',
    });
    expect(readingPlace(7, at(3, 0.5), 4)).toEqual({
      part: 3,
      total: 4,
      href: '/details/7/3/#at=0.5',
    });
    expect(readingPlace(7, null, 0)).toEqual({ part: 1, total: 1, href: '/details/7/1/' });
  });
});
