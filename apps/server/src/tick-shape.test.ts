import { describe, expect, it } from 'vitest';
import { keepTickShape, keptTick } from './tick-shape.ts';

describe('keepTickShape', () => {
  it("catches one of process.nextTick's own entries, with the keys its objects are built from", () => {
    const tick = keepTickShape();
    expect(tick).not.toBeNull();
    // The computed keys whose shape the kept entry holds, then its two named fields.
    expect(Object.getOwnPropertySymbols(tick).map((s) => s.description)).toEqual([
      'async_id_symbol',
      'trigger_async_id_symbol',
    ]);
    expect(Object.keys(tick!)).toEqual(['callback', 'args']);
  });

  it('holds an entry at all times, in the same shape as a fresh one, and replaces it', async () => {
    const fresh = keepTickShape()!;
    const first = keptTick;
    expect(first).not.toBeNull();
    expect(first).not.toBe(fresh);
    expect(Object.getOwnPropertySymbols(keptTick)).toEqual(Object.getOwnPropertySymbols(fresh));
    expect(Object.keys(keptTick!)).toEqual(Object.keys(fresh));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(keptTick).not.toBe(first);
    expect(Object.keys(keptTick!)).toEqual(['callback', 'args']);
  });
});
