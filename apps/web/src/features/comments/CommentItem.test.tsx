import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Comment } from '@kathamala/domain';
import { I18nProvider } from '../../i18n/index.tsx';
import { CommentItem } from './CommentItem.tsx';

const comment = (over: Partial<Comment> = {}): Comment => ({
  commentId: 7,
  storyId: 3,
  episode: 1,
  unicodeCompatibleUsername: 'kasun perera from kandy',
  unicodeCompatibleFeedback: 'Nice',
  createdDate: '22-11-26 09:05:00 pm',
  repliesCount: 0,
  isAuthor: false,
  editable: false,
  rating: null,
  replies: [],
  userId: 11,
  mentions: [],
  ...over,
});

const render = (c: Comment) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider lang="en" setLang={() => {}}>
        <MemoryRouter>
          <ul>
            <CommentItem comment={c} thread={{ storyId: 3, episode: 1, people: () => [] }} />
          </ul>
        </MemoryRouter>
      </I18nProvider>
    </QueryClientProvider>,
  );

describe('CommentItem', () => {
  it('shows markup as text, never as elements', () => {
    const html = render(comment({ unicodeCompatibleFeedback: '<img src=x onerror=alert(1)>' }));
    // Preact escapes < and & in text (> needs no escaping there).
    expect(html).toContain('&lt;img src=x onerror=alert(1)>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<img');
  });

  it('cuts the username to 12 characters with a capital first letter (SPEC.md 5)', () => {
    expect(render(comment())).toContain('>Kasun perera<');
  });

  it('rounds a reader’s rating to halves, at most 4.5 unless 5 (SPEC.md 5)', () => {
    expect(render(comment({ rating: 4.8 }))).toContain('★ 4.5');
    expect(render(comment({ rating: 5 }))).toContain('★ 5');
    expect(render(comment({ rating: 3.3 }))).toContain('★ 3.5');
    expect(render(comment({ rating: null }))).not.toContain('★');
  });

  it('gives the author a verified badge and no rating', () => {
    const html = render(comment({ isAuthor: true, rating: 4 }));
    expect(html).toContain('Author');
    expect(html).not.toContain('★');
  });

  it('offers Remove only to the writer, Report to everyone', () => {
    expect(render(comment())).not.toContain('Remove');
    expect(render(comment())).toContain('Report');
    expect(render(comment({ editable: true }))).toContain('Remove');
  });

  it('links each mention to the person, as text: an author to their author page', () => {
    const html = render(
      comment({
        unicodeCompatibleFeedback: 'Thanks @Kasun Perera and @Nimali <b>!</b> @nobody',
        mentions: [
          { userId: 12, username: 'Kasun Perera', authorId: null },
          { userId: 13, username: 'nimali', authorId: 4 },
        ],
      }),
    );
    expect(html).toMatch(/Thanks <a [^>]*href="\/profile\/12\/"[^>]*>@Kasun Perera<\/a> and /);
    expect(html).toMatch(/<a [^>]*href="\/author\/4\/"[^>]*>@Nimali<\/a> &lt;b>!&lt;\/b> @nobody/);
    expect(html).not.toContain('<b>');
  });

  it('names the replies count on the toggle', () => {
    expect(render(comment({ repliesCount: 2 }))).toContain('2 replies');
    expect(render(comment({ repliesCount: 1 }))).toContain('1 reply');
  });
});
