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

  it('holds the entry caught when the module loaded, in the same shape as a fresh one', () => {
    const fresh = keepTickShape()!;
    expect(keptTick).not.toBeNull();
    expect(keptTick).not.toBe(fresh);
    expect(Object.getOwnPropertySymbols(keptTick)).toEqual(Object.getOwnPropertySymbols(fresh));
    expect(Object.keys(keptTick!)).toEqual(Object.keys(fresh));
  });
});
