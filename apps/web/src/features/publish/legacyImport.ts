/**
 * Pure steps of importing a whole document as episodes: reading a text file whatever its
 * encoding, and cutting the text into episodes at the lines authors use to start one.
 */

/** One episode cut from a document: the marker line (if any) as its title, then its text. */
export interface ImportedEpisode {
  title: string;
  /** Paragraphs separated by blank lines (the episode call turns them into <p>). */
  content: string;
  paragraphs: number;
}

// "Episode 2", "Part 3: The Rain", "Chapter 4", "කොටස 2", "2 වන කොටස", "පරිච්ඡේදය 5".
const NUMBERED = [
  /^(episode|part|chapter)\s*[-–:#.]?\s*\d+\b/i,
  /^(කොටස|පරිච්ඡේදය|දිගහැරුම|අංක)\s*[-–:#.]?\s*\d+/u,
  /^\d+\s*(වන|වැනි|වෙනි)\s*(කොටස|පරිච්ඡේදය|දිගහැරුම)/u,
];
// A line of asterisks or similar: "***", "* * *", "###", "~~~".
const SEPARATOR = /^([*#~]\s*){3,}$/;

/** Whether a line starts a new episode; a numbered heading also gives the episode's title. */
export function episodeMarker(line: string): { title: string } | null {
  const text = line.trim();
  if (!text || text.length > 120) return null;
  if (SEPARATOR.test(text)) return { title: '' };
  return NUMBERED.some((re) => re.test(text)) ? { title: text } : null;
}

/**
 * Cuts a document into episodes at marker lines. Text before the first marker is an episode
 * of its own when it has any words; an episode without a heading gets `defaultTitle(n)`.
 */
export function splitEpisodes(
  text: string,
  defaultTitle: (n: number) => string,
): ImportedEpisode[] {
  const parts: { title: string; lines: string[] }[] = [{ title: '', lines: [] }];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const marker = episodeMarker(raw);
    if (marker) parts.push({ title: marker.title, lines: [] });
    else parts[parts.length - 1]!.lines.push(raw.trim());
  }
  return parts
    .map((p) => ({
      title: p.title,
      // Each non-empty line is a paragraph: documents break paragraphs with one newline.
      paragraphs: p.lines.filter(Boolean).map((l) => l.replace(/\s+/g, ' ')),
    }))
    .filter((p) => p.paragraphs.length > 0)
    .map((p, i) => ({
      title: p.title || defaultTitle(i + 1),
      content: p.paragraphs.join('\n\n'),
      paragraphs: p.paragraphs.length,
    }));
}

/**
 * A text file's text: UTF-8 when it is valid UTF-8, else Windows-1252, the code page legacy-font
 * documents were saved in (FM Abhaya letters such as ß or Í are single bytes there).
 */
export function decodeText(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
