import { describe, expect, it } from 'vitest';
import { decodeText, episodeMarker, splitEpisodes } from './legacyImport.ts';

const title = (n: number) => `කොටස ${n}`;

describe('episodeMarker', () => {
  it.each([
    ['Episode 2', 'Episode 2'],
    ['  Part 3: The Rain ', 'Part 3: The Rain'],
    ['CHAPTER 10', 'CHAPTER 10'],
    ['කොටස 2', 'කොටස 2'],
    ['කොටස - 4', 'කොටස - 4'],
    ['2 වන කොටස', '2 වන කොටස'],
    ['***', ''],
    ['* * *', ''],
    ['###', ''],
  ])('%s starts an episode', (line, expected) => {
    expect(episodeMarker(line)).toEqual({ title: expected });
  });

  it.each([
    'The episode ended.',
    'Part of the house was gone.',
    'කොටසක් ඉතිරි විය.',
    '**bold**',
    '',
    '2024',
  ])('%s is ordinary text', (line) => {
    expect(episodeMarker(line)).toBeNull();
  });
});

describe('splitEpisodes', () => {
  it('cuts at headings and separators, titles from headings, paragraphs per line', () => {
    const doc = ['පළමු ඡේදය.', 'දෙවන ඡේදය.', '', 'කොටස 2', 'තුන්වන ඡේදය.', '***', 'අවසාන ඡේදය.'].join(
      '\r\n',
    );
    expect(splitEpisodes(doc, title)).toEqual([
      { title: 'කොටස 1', content: 'පළමු ඡේදය.\n\nදෙවන ඡේදය.', paragraphs: 2 },
      { title: 'කොටස 2', content: 'තුන්වන ඡේදය.', paragraphs: 1 },
      { title: 'කොටස 3', content: 'අවසාන ඡේදය.', paragraphs: 1 },
    ]);
  });

  it('skips an empty first part and empty episodes; a document without markers is one', () => {
    expect(splitEpisodes('\n\nEpisode 1\nOne.\n\nEpisode 2\n\n', title)).toEqual([
      { title: 'Episode 1', content: 'One.', paragraphs: 1 },
    ]);
    expect(splitEpisodes('Just   one\nstory.', title)).toEqual([
      { title: 'කොටස 1', content: 'Just one\n\nstory.', paragraphs: 2 },
    ]);
    expect(splitEpisodes('  \n ', title)).toEqual([]);
  });
});

describe('decodeText', () => {
  it('reads UTF-8 (without its byte order mark) and falls back to Windows-1252', () => {
    const utf8 = new TextEncoder().encode('\uFEFFගෙදර');
    expect(decodeText(utf8.buffer)).toBe('ගෙදර');
    // FM Abhaya text saved by an old editor: 0xDF is ß, 0xCD is Í in Windows-1252.
    const cp1252 = new Uint8Array([0x6b, 0xdf, 0xcd]);
    expect(decodeText(cp1252.buffer)).toBe('kßÍ');
  });
});
