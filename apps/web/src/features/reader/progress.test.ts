import { describe, expect, it } from 'vitest';
import { positionFromHash, readPosition, scrollTopFor, worthSaving } from './progress.ts';

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

describe('resuming a saved position', () => {
  it('reads only well-formed #at fragments', () => {
    expect(positionFromHash('#at=0.42')).toBe(0.42);
    expect(positionFromHash('#at=1')).toBe(1);
    expect(positionFromHash('#at=2')).toBeNull();
    expect(positionFromHash('#at=0.4x')).toBeNull();
    expect(positionFromHash('#episode')).toBeNull();
  });
  it('scrolls to the place that readPosition would measure again', () => {
    const viewport = 800;
    const scrollY = 100;
    const text = { top: 300, height: 5000 };
    const target = scrollTopFor(0.5, text, scrollY, viewport);
    // After scrolling by (target - scrollY) the text's top moves up by the same amount.
    const after = { top: text.top - (target - scrollY), height: text.height };
    expect(readPosition(after, viewport)).toBe(0.5);
    expect(scrollTopFor(0, { top: 300, height: 5000 }, 0, viewport)).toBe(0);
  });
});
