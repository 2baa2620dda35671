import { describe, expect, it } from 'vitest';
import { packBootData, unpackBootData, type BootData } from './ssr.ts';

const boot = (data: Record<string, unknown>): BootData => ({
  config: { imagesHost: '/images', publicUrl: 'http://x' },
  data,
  uiLang: 'si',
});

describe('packBootData', () => {
  it('writes a text the data repeats once, and unpacks to the same data', () => {
    const story = { storyId: 1, title: 'ශ්‍රී පාද වලව්ව', description: 'A long description here.' };
    const data = {
      '/list': { stories: [story, { ...story, storyId: 2, title: 'Other' }] },
      '/trending': { trending: [{ ...story, author: 'Nilmini' }] },
    };
    const packed = packBootData(boot(data));
    expect(packed.texts).toEqual(['ශ්‍රී පාද වලව්ව', 'A long description here.']);
    expect(JSON.stringify(packed).split('A long description').length).toBe(2);
    expect(unpackBootData(JSON.parse(JSON.stringify(packed)) as BootData)).toEqual(boot(data));
  });

  it('keeps a typed text that starts with the marker as it was', () => {
    const data = { '/a': { title: '\u00010', other: '\u0001\u0001x', n: 3, none: null } };
    const packed = packBootData(boot(data));
    expect(unpackBootData(JSON.parse(JSON.stringify(packed)) as BootData)).toEqual(boot(data));
  });

  it('leaves data without repeats alone', () => {
    const data = { '/a': { title: 'Only once here', short: 'x' } };
    expect(packBootData(boot(data))).toEqual(boot(data));
    expect(unpackBootData(boot(data))).toEqual(boot(data));
  });
});
