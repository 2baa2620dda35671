import { describe, expect, it } from 'vitest';
import { MAX_PAGE } from './constants.ts';
import { parseOngoing, parsePage, parseSort } from './list-params.ts';

describe('a list page address, read as the page and the server both read it', () => {
  it('takes a page from 1 to MAX_PAGE and reads anything else as the first', () => {
    expect(parsePage('3')).toBe(3);
    expect(parsePage(String(MAX_PAGE))).toBe(MAX_PAGE);
    for (const odd of [null, '', '0', '-2', '2.5', 'two', String(MAX_PAGE + 1), '1e3x'])
      expect(parsePage(odd), String(odd)).toBe(1);
  });

  it('takes a known sort and status and reads anything else as the default', () => {
    expect(parseSort('new')).toBe('new');
    expect(parseSort('NEW')).toBe('rate');
    expect(parseSort(null)).toBe('rate');
    expect(parseOngoing('false')).toBe('false');
    expect(parseOngoing('done')).toBe('both');
  });
});
