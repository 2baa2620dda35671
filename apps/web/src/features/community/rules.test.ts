import { describe, expect, it } from 'vitest';
import { COMMUNITY } from '@kathamala/domain';
import {
  canSendPost,
  flipLike,
  likeOptimistically,
  linkParts,
  pickImages,
  textParts,
} from './rules.ts';

const file = (name: string, type = 'image/png', size = 1000) => ({ name, type, size });

describe('pickImages', () => {
  it('takes up to four images, counting those already chosen, and says once that there are too many', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((n) => file(`${n}.png`));
    const { taken, refused } = pickImages(1, five);
    expect(taken.map((f) => f.name)).toEqual(['a.png', 'b.png', 'c.png']);
    expect(refused).toEqual([{ kind: 'tooMany', max: COMMUNITY.imagesPerPost }]);
  });

  it('refuses what is not a JPEG, PNG or WebP and what is too large, by name', () => {
    const { taken, refused } = pickImages(0, [
      file('drawing.svg', 'image/svg+xml'),
      file('huge.jpg', 'image/jpeg', COMMUNITY.imageBytes + 1),
      file('ok.webp', 'image/webp'),
    ]);
    expect(taken.map((f) => f.name)).toEqual(['ok.webp']);
    expect(refused).toEqual([
      { kind: 'notImage', name: 'drawing.svg' },
      { kind: 'tooBig', name: 'huge.jpg', mb: 8 },
    ]);
  });
});

describe('canSendPost', () => {
  it('needs text or an image, and at most 5,000 characters (a Sinhala conjunct counts its code points)', () => {
    expect(canSendPost('  ', 0)).toBe(false);
    expect(canSendPost('  ', 1)).toBe(true);
    expect(canSendPost('ශ්‍රී', 0)).toBe(true);
    expect(canSendPost('a'.repeat(COMMUNITY.postChars), 0)).toBe(true);
    expect(canSendPost('a'.repeat(COMMUNITY.postChars + 1), 4)).toBe(false);
  });
});

describe('flipLike', () => {
  it('adds the viewer’s like at once and takes it back on a second tap, never below zero', () => {
    expect(flipLike({ liked: false, likes: 2 })).toEqual({ liked: true, likes: 3 });
    expect(flipLike({ liked: true, likes: 3 })).toEqual({ liked: false, likes: 2 });
    expect(flipLike({ liked: true, likes: 0 })).toEqual({ liked: false, likes: 0 });
  });
});

describe('likeOptimistically', () => {
  it('shows the like at once, then what the server answers', async () => {
    const shown: unknown[] = [];
    const error = await likeOptimistically(
      { liked: false, likes: 4 },
      async (liked) => ({ liked, likes: 9 }),
      (s) => shown.push(s),
    );
    expect(error).toBeNull();
    expect(shown).toEqual([
      { liked: true, likes: 5 },
      { liked: true, likes: 9 },
    ]);
  });

  it('rolls back to the state before the tap when the server refuses', async () => {
    const shown: unknown[] = [];
    const refusal = new Error('Too many likes this hour.');
    const error = await likeOptimistically(
      { liked: true, likes: 3 },
      () => Promise.reject(refusal),
      (s) => shown.push(s),
    );
    expect(error).toBe(refusal);
    expect(shown).toEqual([
      { liked: false, likes: 2 },
      { liked: true, likes: 3 },
    ]);
  });
});

describe('textParts', () => {
  it('links http(s) addresses without the full stop after them, never javascript:', () => {
    expect(linkParts('See https://example.com/a?b=1. And javascript:alert(1)')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: '. And javascript:alert(1)' },
    ]);
  });

  it('makes the names the server resolved mentions and leaves markup as text', () => {
    const parts = textParts('@nimal <b>read</b> http://x.lk', [{ userId: 7, username: 'nimal' }]);
    expect(parts).toEqual([
      { kind: 'mention', text: '@nimal', userId: 7 },
      { kind: 'text', text: ' <b>read</b> ' },
      { kind: 'link', text: 'http://x.lk', href: 'http://x.lk' },
    ]);
  });
});
