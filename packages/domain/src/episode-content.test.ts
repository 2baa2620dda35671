import { describe, expect, it } from 'vitest';
import {
  countWords,
  episodePlainText,
  escapeEpisodeText,
  paragraphsToHtml,
  parseEpisodeHtml,
  type EpisodeBlock,
} from './episode-content.ts';

const SRI = 'ශ්\u200Dරී';
const plain = (text: string) => ({ text, bold: false, italic: false });
const p = (...runs: ReturnType<typeof plain>[]): EpisodeBlock => ({ type: 'p', runs });
const BR = { text: '', bold: false, italic: false, br: true as const };
const HR: EpisodeBlock = { type: 'break' };

describe('paragraphsToHtml (the seed form to the stored form)', () => {
  it.each([
    ['One.\n\nTwo.', '<p>One.</p><p>Two.</p>'],
    ['Line one\nline two', '<p>Line one<br>line two</p>'],
    ['a\r\n\r\nb', '<p>a</p><p>b</p>'],
    ['a\n  \n\n\nb', '<p>a</p><p>b</p>'],
    ['Tom & "Jerry" <3 it\'s', '<p>Tom &amp; &quot;Jerry&quot; &lt;3 it&#39;s</p>'],
    ['a\n\n* * *\n\nb', '<p>a</p><hr><p>b</p>'],
    ['a\n\n***\n\nb', '<p>a</p><hr><p>b</p>'],
    ['a\n\n⁂\n\nb', '<p>a</p><hr><p>b</p>'],
    ['a\n\n* * * and more', '<p>a</p><p>* * * and more</p>'],
    ['\n\n  \n', ''],
    [`${SRI} ලංකාව`, `<p>${SRI} ලංකාව</p>`],
  ])('%j -> %j', (text, html) => expect(paragraphsToHtml(text)).toBe(html));

  it('escapes every character the stored form escapes', () => {
    expect(escapeEpisodeText(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('parseEpisodeHtml', () => {
  it.each<[string, string, EpisodeBlock[]]>([
    ['paragraphs', '<p>One.</p><p>Two.</p>', [p(plain('One.')), p(plain('Two.'))]],
    ['line breaks', '<p>a<br>b<br/>c</p>', [p(plain('a'), BR, plain('b'), BR, plain('c'))]],
    ['leading and trailing breaks dropped', '<p><br>a<br></p>', [p(plain('a'))]],
    ['scene break', '<p>a</p><hr><p>b</p>', [p(plain('a')), HR, p(plain('b'))]],
    [
      'bold and italic nesting',
      '<p>a <strong>b <em>c</em></strong><em> d</em></p>',
      [
        p(
          plain('a '),
          { text: 'b ', bold: true, italic: false },
          { text: 'c', bold: true, italic: true },
          { text: ' d', bold: false, italic: true },
        ),
      ],
    ],
    [
      '<b> and <i> count too',
      '<p><b>x</b><i>y</i></p>',
      [p({ text: 'x', bold: true, italic: false }, { text: 'y', bold: false, italic: true })],
    ],
    [
      'runs with the same formatting merge',
      '<p><strong>a</strong><strong>b</strong></p>',
      [p({ text: 'ab', bold: true, italic: false })],
    ],
    [
      'entities',
      '<p>&amp; &lt;b&gt; &quot;q&quot; &#39;s&#39; &apos; &#3512; &#x0DC1; &nbsp;x &copy; &#0;</p>',
      [p(plain("& <b> \"q\" 's' ' ම ශ \u00A0x &copy; \uFFFD"))],
    ],
    [
      'stray text becomes a paragraph',
      'hello <p>world</p> tail',
      [p(plain('hello')), p(plain('world')), p(plain('tail'))],
    ],
    ['empty paragraphs dropped', '<p></p><p>  </p><p><br></p><p>x</p>', [p(plain('x'))]],
    [
      'white space collapsed, not ZWJ or NBSP',
      '<p>\n  a \t\n b\u00A0 </p>\n\n',
      [p(plain('a b\u00A0'))],
    ],
    [
      'unknown tags dropped, text kept',
      '<p><span class="x">a</span> <u>b</u></p>',
      [p(plain('a b'))],
    ],
    ['block tags end a paragraph', '<div>a</div><div>b</div>', [p(plain('a')), p(plain('b'))]],
    ['comments dropped', '<p>a<!-- <p>no</p> -->b</p><!doctype html>', [p(plain('ab'))]],
    ['a lone < is a character', '<p>1 < 2 <3</p>', [p(plain('1 < 2 <3'))]],
    [
      'unclosed bold ends with its paragraph',
      '<p><strong>a</p><p>b</p>',
      [p({ text: 'a', bold: true, italic: false }), p(plain('b'))],
    ],
    ['Sinhala with ZWJ kept intact', `<p>${SRI} ලංකාව</p>`, [p(plain(`${SRI} ලංකාව`))]],
    ['empty input', '', []],
  ])('%s', (_name, html, blocks) => expect(parseEpisodeHtml(html)).toEqual(blocks));

  it.each([
    ['<script>alert(1)</script>'],
    ['<img src=x onerror=alert(1)>'],
    ['<p><img src=x onerror=alert(1)></p>'],
    ['<style>p{color:red}</style>'],
    ['<svg onload=alert(1)><script>alert(1)</script></svg>'],
    ['<SCRIPT type="text/javascript">var a = "</p>";</SCRIPT >'],
    ['<img alt=">" src=x onerror=alert(1)>'],
    ['<iframe src="javascript:alert(1)"></iframe>'],
    ['<script>alert(1)'],
    ['<img src=x onerror=alert(1)'],
  ])('%s yields no elements and no markup', (html) => {
    expect(parseEpisodeHtml(html)).toEqual([]);
  });

  it('never returns markup, whatever it is given', () => {
    const blocks = parseEpisodeHtml(
      '<p>ok <a href="javascript:alert(1)">link</a><img src=x onerror=alert(1)> &lt;script&gt;</p><script>evil()</script>',
    );
    expect(blocks).toEqual([p(plain('ok link <script>'))]);
  });

  it('round-trips paragraphsToHtml', () => {
    const text = `${SRI} ලංකාවේ "කතාව" & <more>\nනව පේළිය\n\n* * *\n\nSecond paragraph it's`;
    expect(parseEpisodeHtml(paragraphsToHtml(text))).toEqual([
      p(plain(`${SRI} ලංකාවේ "කතාව" & <more>`), BR, plain('නව පේළිය')),
      HR,
      p(plain("Second paragraph it's")),
    ]);
  });

  it('parses a 200 KB episode quickly', () => {
    const paragraph = `<p>${SRI} ලංකාවේ <strong>කතාව</strong> &amp; <em>more</em><br>text</p>`;
    const html = paragraph.repeat(Math.ceil(200_000 / paragraph.length));
    const started = Date.now();
    const blocks = parseEpisodeHtml(html);
    expect(Date.now() - started).toBeLessThan(200);
    expect(blocks.length).toBe(Math.ceil(200_000 / paragraph.length));
  });
});

describe('episodePlainText', () => {
  it('keeps the words, paragraphs apart by a blank line, no breaks or markup', () => {
    expect(
      episodePlainText('<p>a <strong>b</strong><br>c</p><hr><p>&lt;d&gt;</p><script>x</script>'),
    ).toBe('a b\nc\n\n<d>');
  });
  it('inverts paragraphsToHtml for text without scene breaks', () => {
    const text = `${SRI} ලංකාව\nදෙවන පේළිය\n\nTom & Jerry's "<tag>"`;
    expect(episodePlainText(paragraphsToHtml(text))).toBe(text);
  });
});

describe('countWords', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['one', 1],
    ['Hello, world! It’s 2024.', 4],
    [`${SRI} ලංකාවේ කතාව`, 3],
    [`${SRI}`, 1],
    ['a — b', 2],
    ['line\none\n\ntwo', 3],
  ])('%j -> %i', (text, words) => expect(countWords(text)).toBe(words));
});
