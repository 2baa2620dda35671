import { describe, expect, it } from 'vitest';
import { countWords, episodePlainText } from './episode-content.ts';
import { episodeOpening } from './opening.ts';

/** `n` numbered words as one sentence: 'w1 w2 … wn.' */
const sentence = (n: number, from = 1) =>
  `${Array.from({ length: n }, (_, i) => `W${from + i}`).join(' ')}.`;

describe('episodeOpening (what a visitor reads before the wall)', () => {
  it('keeps whole sentences up to the word budget, never half of the episode or more', () => {
    const html = `<p>${sentence(60)} ${sentence(60, 61)} ${sentence(60, 121)}</p><p>${sentence(200, 181)}</p>`;
    const opening = episodeOpening(html, 150);
    // Two sentences (120 words): the third would pass 150.
    expect(opening).toBe(`<p>${sentence(60)} ${sentence(60, 61)}</p>`);
  });

  it('takes whole paragraphs, scene breaks and formatting while they fit', () => {
    const html = `<p><strong>Bold</strong> start<br>next line.</p><hr><p>${sentence(20)}</p><p>${sentence(200)}</p>`;
    expect(episodeOpening(html, 150)).toBe(
      `<p><strong>Bold</strong> start<br>next line.</p><hr><p>${sentence(20)}</p>`,
    );
  });

  it('cuts a first sentence longer than the budget at a word boundary, with an ellipsis', () => {
    const opening = episodeOpening(`<p>${sentence(400)}</p>`, 150);
    expect(opening).toBe(`<p>${sentence(150).slice(0, -1)}…</p>`);
  });

  it('never gives away half of a short episode or more', () => {
    const html = `<p>${sentence(10)} ${sentence(10, 11)} ${sentence(10, 21)} ${sentence(10, 31)}</p>`;
    const opening = episodeOpening(html, 150);
    expect(opening).toBe(`<p>${sentence(10)} ${sentence(10, 11)}</p>`);
    expect(episodeOpening('<p>Word.</p>', 150)).toBe('');
    expect(episodeOpening('', 150)).toBe('');
  });

  it('keeps Sinhala letter clusters whole and ends at a Sinhala sentence end', () => {
    const si = 'ශ්\u200Dරී ලංකාවේ කඳුකරයේ මීදුම් සහිත උදෑසනක් විය.';
    const html = `<p>${Array.from({ length: 30 }, () => si).join(' ')}</p>`;
    const opening = episodeOpening(html, 150);
    const text = episodePlainText(opening);
    expect(text.endsWith('විය.')).toBe(true);
    expect(countWords(text)).toBeLessThanOrEqual(150);
    expect(countWords(text)).toBeGreaterThan(100);
    // A long Sinhala sentence cut inside: the cut is at a word's end, the joiner kept whole.
    const long = `<p>${Array.from({ length: 200 }, () => 'ශ්\u200Dරී').join(' ')}</p>`;
    const cut = episodePlainText(episodeOpening(long, 150));
    expect(cut).toBe(`${Array.from({ length: 100 }, () => 'ශ්\u200Dරී').join(' ')}…`);
  });

  it('escapes the text again: what was text stays text', () => {
    const html = `<p>Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;. ${sentence(100)}</p>`;
    expect(episodeOpening(html, 150)).toBe('<p>Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;.</p>');
  });
});
