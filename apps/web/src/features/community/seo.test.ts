import { describe, expect, it } from 'vitest';
import { communityPaths, type CommunityProfile, type Post } from '@kathamala/domain';
import { headHtml, metaForUrl } from '../../seo.ts';

const config = { imagesHost: '/images', publicUrl: 'https://kathamala.example' };
const boot = (data: Record<string, unknown> = {}, uiLang: 'en' | 'si' = 'en') => ({
  config,
  data,
  uiLang,
});

const post = {
  postId: 5,
  author: { userId: 3, username: 'Nimali', avatar: null, role: 'reader' },
  text: 'ඊයේ රෑ   කතාව\nකියෙව්වා <b>හොඳයි</b>',
  images: [
    { imageId: 1, src: '/images/community/p5_1080.webp', srcset: '', width: 1080, height: 720 },
  ],
} as unknown as Post;

const profile = {
  userId: 3,
  username: 'Nimali',
  bio: 'I read every night.',
  avatar: { src: '/images/community/a3_256.webp', srcset: '' },
} as unknown as CommunityProfile;

describe('share tags of the community pages', () => {
  it('a post: its writer in the title, its text on one line, its first image, canonical at the post', () => {
    const meta = metaForUrl('/community/post/5', boot({ [communityPaths.postById(5)]: { post } }));
    expect(meta).toMatchObject({
      title: 'Post by Nimali – Kathamala',
      description: 'ඊයේ රෑ කතාව කියෙව්වා <b>හොඳයි</b>',
      canonicalPath: '/community/post/5',
      image: '/images/community/p5_1080.webp',
      type: 'article',
    });
    const html = headHtml(meta, config.publicUrl, 'en');
    expect(html).toContain(
      '<meta property="og:image" content="https://kathamala.example/images/community/p5_1080.webp" />',
    );
    // The writer's text is escaped in the tags, never markup.
    expect(html).not.toContain('<b>');
  });

  it('a post that a visitor may not see is a not-found page, not indexed', () => {
    expect(metaForUrl('/community/post/9', boot())).toMatchObject({ noindex: true });
  });

  it('a profile at either address: name, bio and picture, canonical at /profile/{id}/', () => {
    for (const url of ['/profile/3/', '/community/profile/3']) {
      const meta = metaForUrl(url, boot({ [communityPaths.profile(3)]: profile }));
      expect(meta).toMatchObject({
        title: 'Nimali – Kathamala',
        description: 'I read every night.',
        canonicalPath: '/profile/3/',
        image: '/images/community/a3_256.webp',
        type: 'profile',
      });
      expect(meta.noindex).toBeUndefined();
    }
  });

  it('the feed is found in Sinhala too; the editors’ queue is not indexed', () => {
    expect(metaForUrl('/community?page=2', boot({}, 'si'))).toMatchObject({
      title: 'ප්‍රජාව – Kathamala',
      canonicalPath: '/community?page=2',
    });
    expect(metaForUrl('/community/reviews', boot())).toMatchObject({ noindex: true });
  });
});
