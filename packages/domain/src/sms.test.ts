import { describe, expect, it } from 'vitest';
import { alertSmsText, smsSegments } from './sms.ts';
import { graphemes, truncateGraphemes } from './text.ts';

const URL = 'https://kathamala.lk/details/1234/12/';

describe('smsSegments', () => {
  it('sizes plain English as GSM-7: 160 alone, 153 a part when concatenated', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({
      encoding: 'GSM-7',
      segments: 1,
      perSegment: 160,
      units: 160,
    });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ segments: 3 });
    expect(smsSegments('')).toMatchObject({ encoding: 'GSM-7', segments: 1, units: 0 });
  });

  it('counts the extension table twice and never splits its escape from the character', () => {
    expect(smsSegments('€'.repeat(80))).toMatchObject({
      encoding: 'GSM-7',
      units: 160,
      segments: 1,
    });
    expect(smsSegments('{'.repeat(81))).toMatchObject({ units: 162, segments: 2 });
    // 152 plain septets then '[': 154 would straddle the first part, so '[' starts the second.
    expect(smsSegments(`${'a'.repeat(152)}[${'b'.repeat(152)}`)).toMatchObject({
      units: 306,
      segments: 3,
    });
    // Accented letters of the GSM alphabet stay GSM-7.
    expect(smsSegments('Café à Zürich, ¿qué?').encoding).toBe('GSM-7');
  });

  it('sizes any Sinhala as UCS-2: 70 alone, 67 a part, the joiner counted', () => {
    const sinhala = 'ශ්\u200Dරී ලංකාව'; // 11 code units, ZWJ included
    expect(smsSegments(sinhala)).toEqual({
      encoding: 'UCS-2',
      segments: 1,
      perSegment: 70,
      units: 11,
    });
    expect(smsSegments('ක'.repeat(70))).toMatchObject({ segments: 1 });
    expect(smsSegments('ක'.repeat(71))).toMatchObject({ segments: 2, perSegment: 67 });
    expect(smsSegments('ක'.repeat(134))).toMatchObject({ segments: 2 });
    expect(smsSegments('ක'.repeat(135))).toMatchObject({ segments: 3 });
    // One Sinhala letter in English text makes the whole message UCS-2.
    expect(smsSegments(`${'a'.repeat(69)}ක`)).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments(`${'a'.repeat(70)}ක`)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
  });

  it('counts an emoji as two UCS-2 units and never splits the pair', () => {
    expect(smsSegments('😀')).toMatchObject({ encoding: 'UCS-2', units: 2, segments: 1 });
    expect(smsSegments('😀'.repeat(35))).toMatchObject({ units: 70, segments: 1 });
    // 66 units then an emoji: 68 would straddle the first part.
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(60)}`)).toMatchObject({
      units: 128,
      segments: 2,
    });
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(66)}`)).toMatchObject({
      units: 134,
      segments: 3,
    });
  });
});

describe('alertSmsText', () => {
  it('writes an English alert with title, episode and link, in GSM-7', () => {
    const text = alertSmsText({
      title: 'The Lantern',
      partNumber: 3,
      language: 'english',
      url: URL,
    });
    expect(text).toBe(`New on Kathamala: "The Lantern", episode 3. Read it: ${URL}`);
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(
      alertSmsText({
        title: 'X',
        partNumber: 1,
        language: 'english',
        firstEpisode: true,
        url: URL,
      }),
    ).toContain('New story');
  });

  it('writes a Sinhala alert in Sinhala, sized as UCS-2', () => {
    const text = alertSmsText({ title: 'කළු ගඟ', partNumber: 12, language: 'sinhala', url: URL });
    expect(text).toBe(`"කළු ගඟ" කතාවේ 12 වන කොටස කතාමාලාවේ. කියවන්න: ${URL}`);
    expect(smsSegments(text)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
  });

  it('shortens a long Sinhala title at a grapheme boundary, joiner kept, to fit two segments', () => {
    const title = 'ශ්\u200Dරී ලංකාවේ දකුණු වෙරළේ පැරණි ප්\u200Dරදීපාගාරයේ අභිරහස සහ රෑ එළිය නොවූ මුහුදු කතාව';
    const text = alertSmsText({ title, partNumber: 7, language: 'sinhala', url: URL });
    expect(smsSegments(text)).toMatchObject({ encoding: 'UCS-2' });
    expect(smsSegments(text).segments).toBeLessThanOrEqual(2);
    const shown = text.slice(1, text.indexOf('..."'));
    // What is left of the title is a whole-grapheme prefix of it, and as long as fits.
    expect(title.startsWith(shown)).toBe(true);
    expect(shown.endsWith('\u200D')).toBe(false);
    expect(graphemes(shown).length).toBeGreaterThan(5);
    // The next longer cut of the title (a dangling joiner or a space adds nothing) does not fit.
    let k = graphemes(shown).length + 1;
    while (truncateGraphemes(title, k, '...') === `${shown}...`) k += 1;
    const longer = `"${truncateGraphemes(title, k, '...')}" කතාවේ 7 වන කොටස කතාමාලාවේ. කියවන්න: ${URL}`;
    expect(smsSegments(longer).segments).toBeGreaterThan(2);
    expect(text).toContain('7 වන කොටස');
    expect(text.endsWith(URL)).toBe(true);
  });

  it('shortens a long English title and keeps the message GSM-7', () => {
    const title = 'A very long title '.repeat(20).trim();
    const text = alertSmsText({ title, partNumber: 2, language: 'english', url: URL });
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(text).toMatch(/\.\.\.", episode 2\. Read it: /);
  });

  it('never splits an emoji in a title', () => {
    const title = `Stars ${'🌟'.repeat(80)}`;
    const text = alertSmsText({ title, partNumber: 1, language: 'english', url: URL });
    expect(smsSegments(text).segments).toBeLessThanOrEqual(2);
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(text.endsWith(URL)).toBe(true);
  });

  it('folds line breaks in a title into spaces', () => {
    expect(
      alertSmsText({ title: 'Two\nlines', partNumber: 1, language: 'english', url: URL }),
    ).toContain('"Two lines"');
  });
});
