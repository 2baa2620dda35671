import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EpisodeText } from './EpisodeText.tsx';

const render = (content: string) =>
  renderToStaticMarkup(<EpisodeText content={content} lang="si" />)
    // The CSS module's class names are the build's business, not this test's.
    .replace(/ class="[^"]*"/g, '');

describe('EpisodeText', () => {
  it('renders paragraphs, bold, italic, line breaks and scene breaks as elements', () => {
    expect(
      render('<p>ශ්\u200Dරී <strong>bold <em>both</em></strong><br>next</p><hr><p>&lt;b&gt;</p>'),
    ).toBe(
      '<div lang="si" data-episode-text>' +
        '<p>ශ්\u200Dරී <strong>bold </strong><strong><em>both</em></strong><br/>next</p>' +
        '<hr/><p>&lt;b></p></div>',
    );
  });
  it('never lets markup through', () => {
    const html = render(
      '<p>hi<img src=x onerror=alert(1)></p><script>alert(1)</script><p onclick="x()">&lt;script&gt;</p>',
    );
    expect(html).not.toMatch(/<(script|img)|onerror|onclick/i);
    // Preact escapes < and & in text (> needs no escaping there).
    expect(html).toContain('&lt;script>');
  });
});
