import { MEMBERSHIP } from './constants.ts';
import { graphemes, truncateGraphemes } from './text.ts';

/* SMS sizing (GSM 03.38) and the text of an alert SMS. */

/** The GSM-7 default alphabet: one septet each. ESC (0x1B) is left out: it is not text. */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
    '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** The extension table: sent as ESC + character, so each counts 2. */
const GSM7_EXTENSION = new Set('^{}\\[~]|€\f');

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSize {
  /** GSM-7 when every character is in the GSM alphabet, else UCS-2 (any Sinhala, any emoji). */
  encoding: SmsEncoding;
  /** Messages the carrier sends (and charges) for this text; 1 for an empty text. */
  segments: number;
  /** Characters one segment holds: 160 or 70 alone, 153 or 67 when concatenated. */
  perSegment: number;
  /** Length in the encoding's units: septets (extension characters 2) or UTF-16 code units. */
  units: number;
}

/**
 * How a text travels as SMS. One character outside GSM-7 makes the whole message UCS-2.
 * Segments are filled greedily as phones do: an extension character (2 septets) or a
 * surrogate pair (an emoji, 2 units) is never split across two segments, so a text may need
 * one segment more than its length divided by the segment size.
 */
export function smsSegments(text: string): SmsSize {
  const chars = Array.from(text);
  const gsm = chars.every((c) => GSM7_BASIC.has(c) || GSM7_EXTENSION.has(c));
  const widths = gsm
    ? chars.map((c) => (GSM7_EXTENSION.has(c) ? 2 : 1))
    : chars.map((c) => c.length); // UTF-16 code units: 2 for a character beyond U+FFFF.
  const units = widths.reduce((a, b) => a + b, 0);
  const single = gsm ? MEMBERSHIP.gsm7Single : MEMBERSHIP.ucs2Single;
  const part = gsm ? MEMBERSHIP.gsm7Part : MEMBERSHIP.ucs2Part;
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  if (units <= single) return { encoding, segments: 1, perSegment: single, units };
  let segments = 1;
  let used = 0;
  for (const w of widths) {
    if (used + w > part) {
      segments += 1;
      used = 0;
    }
    used += w;
  }
  return { encoding, segments, perSegment: part, units };
}

export interface AlertSmsInput {
  title: string;
  partNumber: number;
  /** The story's language: a Sinhala story's alert is written in Sinhala. */
  language: 'sinhala' | 'english';
  /** The story's first episode: 'new story' rather than 'new episode'. */
  firstEpisode?: boolean;
  /** Where the episode is read: {PUBLIC_URL}/details/{storyId}/{n}/. */
  url: string;
}

/** Written in ASCII so that an English alert stays GSM-7 ('…' is not in the GSM alphabet). */
const ELLIPSIS = '...';

const wording = (input: AlertSmsInput, title: string) => {
  const n = input.partNumber;
  if (input.language === 'sinhala')
    return input.firstEpisode
      ? `නව කතාවක්: "${title}", ${n} වන කොටස කතාමාලාවේ. කියවන්න: ${input.url}`
      : `"${title}" කතාවේ ${n} වන කොටස කතාමාලාවේ. කියවන්න: ${input.url}`;
  return input.firstEpisode
    ? `New story on Kathamala: "${title}", episode ${n}. Read it: ${input.url}`
    : `New on Kathamala: "${title}", episode ${n}. Read it: ${input.url}`;
};

/**
 * The alert SMS for a new episode: title, episode number and link, in the story's language.
 * The title is shortened at a grapheme boundary (a Sinhala conjunct stays whole, a joiner is
 * never left dangling) until the whole SMS fits `maxSegments` segments; the rest never is.
 */
export function alertSmsText(
  input: AlertSmsInput,
  maxSegments: number = MEMBERSHIP.alertMaxSegments,
): string {
  const title = input.title.replace(/\s+/g, ' ').trim();
  const fits = (text: string) => smsSegments(text).segments <= maxSegments;
  const whole = wording(input, title);
  if (fits(whole)) return whole;
  // The longest shortened title that fits: fitting only gets easier as the title shrinks.
  let lo = 0;
  let hi = graphemes(title).length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(wording(input, truncateGraphemes(title, mid, ELLIPSIS)))) lo = mid;
    else hi = mid - 1;
  }
  return wording(input, truncateGraphemes(title, lo, ELLIPSIS));
}
