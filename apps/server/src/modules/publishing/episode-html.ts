import sanitizeHtml from 'sanitize-html';
import { paragraphsToHtml, toStored } from '@kathamala/domain';

/** The only markup an episode keeps: paragraphs, bold, italic, line breaks and scene breaks. */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'strong', 'em', 'br', 'hr'],
  allowedAttributes: {},
  allowedSchemes: [],
  // Editors and pasted documents use other names for the same things.
  transformTags: {
    b: 'strong',
    i: 'em',
    div: 'p',
    h1: 'p',
    h2: 'p',
    h3: 'p',
    h4: 'p',
    h5: 'p',
    h6: 'p',
    li: 'p',
    blockquote: 'p',
  },
  // Script and style bodies are code, not story text: drop them with their tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head'],
  disallowedTagsMode: 'discard',
};

const looksLikeHtml = (text: string) => /<\/?[a-z][^>]*>/i.test(text);

/**
 * The stored form of an episode's text: NFC (zero-width joiners kept) and sanitized through an
 * allow-list. Plain text with blank lines between paragraphs is accepted too (API clients, pastes).
 */
export function toEpisodeHtml(input: string): string {
  const text = toStored(input).replace(/\r\n?/g, '\n');
  const html = looksLikeHtml(text) ? text : paragraphsToHtml(text);
  return sanitizeHtml(html, OPTIONS)
    .replace(/<p>(\s|&nbsp;|<br \/>|<br>)*<\/p>/g, '')
    .replace(/<br \/>/g, '<br>')
    .replace(/<hr \/>/g, '<hr>')
    .trim();
}
