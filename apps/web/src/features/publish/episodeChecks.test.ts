import { describe, expect, it } from 'vitest';
import { AUTHORING } from '@kathamala/domain';
import { ApiError } from '../../api/client.ts';
import { translator } from '../../i18n/index.tsx';
import { hasText, messageOf, problemWith } from './episodeChecks.ts';

const t = translator('en');
const values = (over: Partial<{ title: string; content: string }> = {}) => ({
  title: 'කොටස 1',
  content: '<p>අද</p>',
  membersOnly: false,
  ...over,
});

describe('problemWith', () => {
  it('lets a titled episode go, and an empty one as a draft', () => {
    expect(problemWith(values(), true, t)).toBeNull();
    expect(problemWith(values({ content: '' }), false, t)).toBeNull();
  });

  it('wants a title of at most the longest length, counted in characters', () => {
    const rule = t('publish.episodeTitleRule', { max: AUTHORING.titleMaxChars });
    expect(problemWith(values({ title: '   ' }), false, t)).toBe(rule);
    // Sinhala letters are several UTF-16 units and bytes each: the limit counts characters.
    const longest = 'ක'.repeat(AUTHORING.titleMaxChars);
    expect(problemWith(values({ title: longest }), false, t)).toBeNull();
    expect(problemWith(values({ title: `${longest}ක` }), false, t)).toBe(rule);
  });

  it('refuses text over the size limit in UTF-8 bytes', () => {
    const big = `<p>${'අ'.repeat(AUTHORING.contentBytes / 3)}</p>`;
    expect(problemWith(values({ content: big }), false, t)).toBe(
      t('publish.contentTooLong', { kb: AUTHORING.contentBytes / 1024 }),
    );
  });

  it('does not publish an episode without text', () => {
    expect(problemWith(values({ content: '<p> </p><hr>' }), true, t)).toBe(
      t('publish.contentEmpty'),
    );
    expect(hasText('<p><strong>අද</strong></p>')).toBe(true);
  });
});

describe('messageOf', () => {
  it("says no connection, the server's sentence, or a general error", () => {
    expect(messageOf(new ApiError(0, 0, 'network'), t)).toBe(t('publish.offlineAction'));
    expect(messageOf(new ApiError(400, 2, 'The title is taken.'), t)).toBe('The title is taken.');
    expect(messageOf(new ApiError(500, 1, ''), t)).toBe(t('common.error'));
    expect(messageOf(new Error('boom'), t)).toBe(t('common.error'));
  });
});
