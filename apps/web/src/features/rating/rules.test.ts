import { describe, expect, it } from 'vitest';
import {
  fewerClaps,
  nextClaps,
  ratingStyleFor,
  starFill,
  starsAfterKey,
  starsAtPointer,
} from './rules.ts';

describe('rating rules', () => {
  it('claps for kinds 2 and 3, stars for text stories', () => {
    expect(ratingStyleFor(0)).toBe('stars');
    expect(ratingStyleFor(2)).toBe('claps');
    expect(ratingStyleFor(3)).toBe('claps');
  });

  it('each clap adds one, up to 5', () => {
    expect(nextClaps(0)).toBe(1);
    expect(nextClaps(2.5)).toBe(3);
    expect(nextClaps(4)).toBe(5);
    expect(nextClaps(5)).toBe(5);
  });

  it('a clap can be taken back, down to none', () => {
    expect(fewerClaps(5)).toBe(4);
    expect(fewerClaps(1)).toBe(0);
    expect(fewerClaps(0)).toBe(0);
  });

  it.each([
    [0, 'ArrowRight', 0.5],
    [3, 'ArrowRight', 3.5],
    [5, 'ArrowUp', 5],
    [0.5, 'ArrowLeft', 0.5],
    [3, 'ArrowDown', 2.5],
    [2, 'PageUp', 3],
    [1, 'PageDown', 0.5],
    [3, 'Home', 0.5],
    [1, 'End', 5],
    [1, '4', 4],
    [1, 'a', null],
    [1, '7', null],
    [3.5, '0', 0],
    [3.5, 'Delete', 0],
    [3.5, 'Backspace', 0],
  ] as const)('from %s, %s gives %s', (value, key, expected) => {
    expect(starsAfterKey(value, key)).toBe(expected);
  });

  it('a pointer on the left half of a star gives a half star', () => {
    expect(starsAtPointer(0, 0.2)).toBe(0.5);
    expect(starsAtPointer(0, 0.8)).toBe(1);
    expect(starsAtPointer(3, 0.4)).toBe(3.5);
    expect(starsAtPointer(4, 0.9)).toBe(5);
  });

  it('fills stars in halves', () => {
    expect([0, 1, 2, 3, 4].map((i) => starFill(3.5, i))).toEqual([1, 1, 1, 0.5, 0]);
    expect([0, 1, 2, 3, 4].map((i) => starFill(0, i))).toEqual([0, 0, 0, 0, 0]);
  });
});
