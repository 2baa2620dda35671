import { describe, expect, it } from 'vitest';
import { readPosition, worthSaving } from './progress.ts';

describe('readPosition', () => {
  it('is how much of the text is above the bottom of the screen', () => {
    expect(readPosition({ top: 800, height: 2000 }, 800)).toBe(0);
    expect(readPosition({ top: -200, height: 2000 }, 800)).toBe(0.5);
    expect(readPosition({ top: -1500, height: 2000 }, 800)).toBe(1);
    expect(readPosition({ top: 100, height: 300 }, 800)).toBe(1);
  });

  it('is 0 for text with no height', () => {
    expect(readPosition({ top: 0, height: 0 }, 800)).toBe(0);
  });
});

describe('worthSaving', () => {
  it('saves the first position and moves of 1 % or more', () => {
    expect(worthSaving(0, null)).toBe(true);
    expect(worthSaving(0.505, 0.5)).toBe(false);
    expect(worthSaving(0.51, 0.5)).toBe(true);
    expect(worthSaving(0.2, 0.5)).toBe(true);
  });
});
