import { describe, expect, it } from 'vitest';
import { apiPaths, type BootData, type StoryDetails } from '@kathamala/domain';
import { headHtml, metaForUrl } from './seo.ts';

const config = {
  imagesHost: 'https://img.example/covers/',
  publicUrl: 'https://kathamala.example',
};

const preview = {
  story: {
    storyId: 7,
    title: 'Tea & "Rain" <at> Ella',
    description: 'A story.',
    kind: 0,
    membersOnly: false,
    ongoing: true,
    language: 'english',
    category: 'family',
    reads: 1,
    rating: 4,
  },
} as unknown as StoryDetails;

const boot = (data: BootData['data'] = {}, uiLang: BootData['uiLang'] = 'en') => ({
  config,
  data,
  uiLang,
});

describe('metaForUrl', () => {
  it('describes a story from its prefetched preview, canonical at the story address', () => {
    const meta = metaForUrl('/details/7/3/', boot({ [apiPaths.preview(7)]: preview }));
    expect(meta).toMatchObject({
      title: 'Tea & "Rain" <at> Ella – Kathamala',
      description: 'A story.',
      canonicalPath: '/details/7/',
      image: 'https://img.example/covers/story_cover_7.png',
      type: 'article',
    });
  });

  it('names a missing story as not found and keeps it out of search engines', () => {
    expect(metaForUrl('/details/8/', boot())).toMatchObject({
      noindex: true,
      title: 'Page not found – Kathamala',
    });
  });

  it('describes an author page by name and bio, with the first story cover as its image', () => {
    const page = {
      author: { authorId: 3, name: 'නිල්මිණී ශ්\u200Dරියා', bio: '  Writes about\n\nthe sea.  ' },
      stories: [{ storyId: 12 }, { storyId: 4 }],
    };
    expect(metaForUrl('/author/3', boot({ [apiPaths.authorStories(3)]: page }))).toEqual({
      title: 'නිල්මිණී ශ්\u200Dරියා – Kathamala',
      description: 'Writes about the sea.',
      canonicalPath: '/author/3/',
      image: 'https://img.example/covers/story_cover_12.png',
      type: 'profile',
    });
  });

  it('gives an author without a bio or stories a sentence and no image', () => {
    const page = { author: { authorId: 5, name: 'Saman', bio: '' }, stories: [] };
    const meta = metaForUrl('/author/5/', boot({ [apiPaths.authorStories(5)]: page }));
    expect(meta.description).toBe('Read stories by Saman on Kathamala, episode by episode.');
    expect(meta.image).toBeUndefined();
    expect(meta.noindex).toBeUndefined();
    const html = headHtml(meta, config.publicUrl, 'en');
    expect(html).toContain('<meta property="og:type" content="profile" />');
    expect(html).toContain('<meta name="twitter:card" content="summary" />');
  });

  it('names a missing author as not found and keeps it out of search engines', () => {
    expect(metaForUrl('/author/9/', boot())).toMatchObject({
      noindex: true,
      title: 'Page not found – Kathamala',
    });
  });

  it('keeps the author-only pages out of search engines', () => {
    expect(metaForUrl('/statistics/', boot())).toMatchObject({
      title: 'Statistics – Kathamala',
      noindex: true,
    });
    expect(metaForUrl('/publish/story/', boot()).noindex).toBe(true);
  });

  it('keeps the bookmarks page out of search engines and lets the leaderboard be found', () => {
    expect(metaForUrl('/bookmarks/', boot())).toMatchObject({
      title: 'Bookmarks – Kathamala',
      noindex: true,
    });
    const board = metaForUrl('/leaderboard', boot());
    expect(board).toMatchObject({
      title: 'Leaderboard – Kathamala',
      canonicalPath: '/leaderboard/',
    });
    expect(board.noindex).toBeUndefined();
  });

  it('shares a leaderboard with its first authors, a cover from trending and its board in the canonical', () => {
    const rank = (position: number, name: string) => ({ position, name });
    const data = {
      [apiPaths.statsAuthors({ by: 'rating', period: 'all' })]: {
        by: 'rating',
        period: 'all',
        authors: [rank(1, 'Nilmini'), rank(2, 'Saman'), rank(2, 'Ashan'), rank(4, 'Dilini')],
      },
      [apiPaths.trending()]: { trending: [{ storyId: 9 }] },
    };
    expect(metaForUrl('/leaderboard/?period=all&by=rating&utm_source=x', boot(data))).toMatchObject(
      {
        title: 'Leaderboard – Kathamala',
        description: 'Highest rated authors (All time): 1. Nilmini, 2. Saman, 2. Ashan',
        canonicalPath: '/leaderboard/?by=rating&period=all',
        image: 'https://img.example/covers/story_cover_9.png',
      },
    );
    // An empty board says what the page is.
    expect(metaForUrl('/leaderboard/', boot()).description).toBe(
      'The authors readers read most and rate highest, and how they moved.',
    );
  });

  it('titles pages in the UI language', () => {
    expect(metaForUrl('/category?c=mystery', boot({}, 'si'))).toMatchObject({
      title: 'අභිරහස් – Kathamala',
      canonicalPath: '/category?c=mystery',
    });
    expect(metaForUrl('/login?redirect=/x', boot()).noindex).toBe(true);
  });
});

describe('headHtml', () => {
  it('escapes every value and makes addresses absolute', () => {
    const html = headHtml(
      metaForUrl('/details/7/', boot({ [apiPaths.preview(7)]: preview })),
      config.publicUrl,
      'en',
    );
    expect(html).toContain('<title>Tea &amp; &quot;Rain&quot; &lt;at&gt; Ella – Kathamala</title>');
    expect(html).toContain(
      '<meta property="og:title" content="Tea &amp; &quot;Rain&quot; &lt;at&gt; Ella – Kathamala" />',
    );
    expect(html).toContain('<link rel="canonical" href="https://kathamala.example/details/7/" />');
    expect(html).toContain(
      '<meta property="og:url" content="https://kathamala.example/details/7/" />',
    );
    expect(html).toContain(
      '<meta property="og:image" content="https://img.example/covers/story_cover_7.png" />',
    );
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).not.toMatch(/<at>/);
  });
});
