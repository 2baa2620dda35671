/**
 * Episode text in its stored form: sanitized HTML with only <p>, <strong>, <em>, <br> and
 * <hr> (a scene break), no attributes, text escaped as &amp; &lt; &gt; &quot; &#39;.
 *
 * The server sanitizes on the way in; readers and SSR never inject it as HTML. They parse it
 * here into blocks and render elements, so even a stored string that somehow escaped the
 * sanitizer can only ever show up as words.
 */

/**
 * A piece of a paragraph. A run with `br: true` is a line break inside the paragraph (its
 * text is ''); every other run is text with its formatting. Adjacent runs never share both
 * flags (they are merged), and a paragraph never starts or ends with a line break.
 */
export interface EpisodeRun {
  text: string;
  bold: boolean;
  italic: boolean;
  br?: true;
}

/** One block of an episode: a paragraph of runs, or a scene break. */
export type EpisodeBlock = { type: 'p'; runs: EpisodeRun[] } | { type: 'break' };

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for the stored form (& < > " '). */
export const escapeEpisodeText = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

// A paragraph that is only a scene-break mark: '* * *', '***' or the asterism.
const SCENE_BREAK = /^(?:\*[ \t]*\*[ \t]*\*|⁂)$/;

/**
 * Plain text (paragraphs separated by blank lines, the demo seed's form) to the stored HTML:
 * single newlines become <br>, a paragraph of '* * *', '***' or '⁂' becomes <hr>.
 */
export const paragraphsToHtml = (text: string): string =>
  text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n\s*/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) =>
      SCENE_BREAK.test(paragraph)
        ? '<hr>'
        : `<p>${paragraph
            .split('\n')
            .map((line) => escapeEpisodeText(line.trim()))
            .filter((line) => line !== '')
            .join('<br>')}</p>`,
    )
    .join('');

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));?/g;

const fromCodePoint = (code: number): string =>
  // NUL, surrogates and beyond Unicode are not characters: show the replacement mark.
  code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
    ? '\uFFFD'
    : String.fromCodePoint(code);

/** Decodes the basic named entities and numeric ones; anything else stays as typed. */
const decodeEntities = (text: string): string =>
  text.indexOf('&') === -1
    ? text
    : text.replace(ENTITY, (whole, dec?: string, hex?: string, name?: string) => {
        if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
        if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
        const named = NAMED_ENTITIES[name!.toLowerCase()];
        return named ?? whole;
      });

// Tags whose content is not text a reader should see: dropped whole, up to their end tag.
const RAW_TEXT_TAGS = new Set([
  'script',
  'style',
  'template',
  'textarea',
  'title',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'object',
  'svg',
  'math',
]);

// Block-level tags outside the stored set still end a paragraph, so pasted text keeps its shape.
const BLOCK_TAGS = new Set([
  'div',
  'section',
  'article',
  'blockquote',
  'pre',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'tr',
  'td',
  'th',
]);

// HTML's collapsible white space; NBSP and the zero-width joiners are not in it.
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number): boolean => isLetter(c) || (c >= 48 && c <= 57);

/**
 * Parses the stored HTML into blocks in one linear pass, with no DOM. Tolerant: unknown tags
 * are dropped and their text kept (script-like ones with their content), entities decoded,
 * text outside a <p> becomes a paragraph, white space collapsed as a browser would, empty
 * paragraphs dropped. <b>/<i> count as <strong>/<em>. Nothing it returns is markup.
 */
export const parseEpisodeHtml = (html: string): EpisodeBlock[] => {
  const blocks: EpisodeBlock[] = [];
  let runs: EpisodeRun[] | null = null;
  let bold = 0;
  let italic = 0;
  // Collapsed white space waiting for the next word on the same line; it keeps the formatting
  // it was typed in (as a browser keeps the first space of a run), so '<b>a </b>b' stays so.
  let pendingSpace: { bold: boolean; italic: boolean } | null = null;
  let lineHasText = false;

  const closeParagraph = (): void => {
    if (!runs) return;
    while (runs.length && runs[runs.length - 1]!.br) runs.pop();
    if (runs.length) blocks.push({ type: 'p', runs });
    runs = null;
  };

  const startParagraph = (): void => {
    closeParagraph();
    bold = 0;
    italic = 0;
  };

  const append = (list: EpisodeRun[], text: string, isBold: boolean, isItalic: boolean): void => {
    const last = list[list.length - 1];
    if (last && !last.br && last.bold === isBold && last.italic === isItalic) last.text += text;
    else list.push({ text, bold: isBold, italic: isItalic });
  };

  const emitWord = (word: string): void => {
    if (!runs) runs = [];
    if (pendingSpace && lineHasText) append(runs, ' ', pendingSpace.bold, pendingSpace.italic);
    append(runs, word, bold > 0, italic > 0);
    pendingSpace = null;
    lineHasText = true;
  };

  const emitText = (raw: string): void => {
    const text = decodeEntities(raw);
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || isSpace(text.charCodeAt(i))) {
        if (i > start) emitWord(text.slice(start, i));
        if (i < text.length && !pendingSpace) pendingSpace = { bold: bold > 0, italic: italic > 0 };
        start = i + 1;
      }
    }
  };

  const emitBreak = (): void => {
    // A line break before any text on the paragraph's first line shows nothing: drop it.
    if (runs && runs.length) runs.push({ text: '', bold: false, italic: false, br: true });
    pendingSpace = null;
    lineHasText = false;
  };

  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > i) emitText(html.slice(i, textEnd));
    if (lt === -1) break;
    i = lt;
    const next = html.charCodeAt(i + 1);
    const closing = next === 47; /* / */
    const nameStart = closing ? i + 2 : i + 1;

    if (next === 33 /* ! */ || next === 63 /* ? */) {
      // Comment, doctype or processing instruction: dropped.
      const end = html.startsWith('<!--', i) ? html.indexOf('-->', i + 4) : html.indexOf('>', i);
      i = end === -1 ? n : end + (html.startsWith('<!--', i) ? 3 : 1);
      continue;
    }
    if (!isLetter(html.charCodeAt(nameStart))) {
      // '<' that opens no tag is just a character (as a browser shows it).
      emitText('<');
      i += 1;
      continue;
    }

    let j = nameStart;
    while (j < n && isNameChar(html.charCodeAt(j))) j++;
    const name = html.slice(nameStart, j).toLowerCase();
    // Skip attributes up to '>', minding quotes so <img alt=">"> ends where a browser ends it.
    let quote = 0;
    while (j < n) {
      const c = html.charCodeAt(j);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (c === 62 /* > */) break;
      j++;
    }
    // An unterminated tag at the end is dropped, as a browser drops it.
    i = j < n ? j + 1 : n;

    if (!closing && RAW_TEXT_TAGS.has(name)) {
      const close = new RegExp(`</${name}[\\s/>]`, 'gi');
      close.lastIndex = i;
      const found = close.exec(html);
      if (!found) {
        i = n;
      } else {
        const end = html.indexOf('>', found.index);
        i = end === -1 ? n : end + 1;
      }
      continue;
    }

    switch (name) {
      case 'p':
        startParagraph();
        break;
      case 'strong':
      case 'b':
        if (closing) bold = Math.max(0, bold - 1);
        else bold++;
        break;
      case 'em':
      case 'i':
        if (closing) italic = Math.max(0, italic - 1);
        else italic++;
        break;
      case 'br':
        emitBreak();
        break;
      case 'hr':
        startParagraph();
        blocks.push({ type: 'break' });
        break;
      default:
        if (BLOCK_TAGS.has(name)) startParagraph();
    }
    if (name === 'p' || name === 'hr' || BLOCK_TAGS.has(name)) {
      pendingSpace = null;
      lineHasText = false;
    }
  }
  closeParagraph();
  return blocks;
};

/** The words of a paragraph block, line breaks as '\n'. */
export const paragraphText = (runs: readonly EpisodeRun[]): string =>
  runs.map((run) => (run.br ? '\n' : run.text)).join('');

/**
 * The words only: paragraphs separated by a blank line, line breaks kept, scene breaks and
 * formatting dropped. For search indexing, previews and word counts.
 */
export const episodePlainText = (html: string): string =>
  parseEpisodeHtml(html)
    .flatMap((block) => (block.type === 'p' ? [paragraphText(block.runs)] : []))
    .join('\n\n');

let wordSegmenter: Intl.Segmenter | null | undefined;

/**
 * Counts words with Intl.Segmenter (a Sinhala word joined by ZWJ counts once; punctuation
 * does not count); where the runtime has no Segmenter, counts white-space separated pieces.
 */
export const countWords = (text: string): number => {
  if (wordSegmenter === undefined) {
    wordSegmenter =
      typeof Intl.Segmenter === 'function'
        ? new Intl.Segmenter(undefined, { granularity: 'word' })
        : null;
  }
  if (!wordSegmenter) return text.split(/\s+/).filter((w) => w !== '').length;
  let count = 0;
  for (const segment of wordSegmenter.segment(text)) if (segment.isWordLike) count++;
  return count;
};
