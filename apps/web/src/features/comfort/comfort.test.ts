import { describe, expect, it } from 'vitest';
import { applyComfort, DEFAULT_COMFORT, parseComfort } from './comfort.ts';

describe('parseComfort', () => {
  it('reads stored settings', () => {
    expect(parseComfort('{"theme":"sepia","size":4,"spacing":0}')).toEqual({
      theme: 'sepia',
      size: 4,
      spacing: 0,
    });
  });

  it.each([null, '', 'not json', '[]', '42', '{"theme":"neon","size":9,"spacing":-1}'])(
    'falls back to the defaults for %j',
    (raw) => {
      expect(parseComfort(raw)).toEqual(DEFAULT_COMFORT);
    },
  );

  it('keeps the good parts of a half-broken value', () => {
    expect(parseComfort('{"theme":"dark","size":1.5}')).toEqual({
      theme: 'dark',
      size: DEFAULT_COMFORT.size,
      spacing: DEFAULT_COMFORT.spacing,
    });
  });
});

describe('applyComfort', () => {
  it('sets the attributes the CSS keys on', () => {
    const attrs = new Map<string, string>();
    const root = {
      setAttribute: (k: string, v: string) => attrs.set(k, v),
    } as unknown as HTMLElement;
    applyComfort({ theme: 'dark', size: 3, spacing: 2 }, root);
    expect(Object.fromEntries(attrs)).toEqual({
      'data-theme': 'dark',
      'data-text-size': '3',
      'data-line-spacing': '2',
    });
  });
});
