import { OPENING_WORDS } from './constants.ts';
import {
  countWords,
  escapeEpisodeText,
  paragraphText,
  parseEpisodeHtml,
  type EpisodeBlock,
  type EpisodeRun,
} from './episode-content.ts';

/*
 * The opening of an episode that a visitor reads before the wall (SPEC.md 1: visitors read
 * previews). Made on the server from the stored text, so only these words ever leave it.
 */

type Granularity = 'word' | 'sentence';
const segmenters: Partial<Record<Granularity, Intl.Segmenter | null>> = {};
const segmenter = (granularity: Granularity) => {
  if (!(granularity in segmenters))
    segmenters[granularity] =
      typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity }) : null;
  return segmenters[granularity]!;
};

/** Where the text's first `words` words end (a word boundary, never inside a letter cluster). */
const wordsEnd = (text: string, words: number): number => {
  const s = segmenter('word');
  let count = 0;
  if (!s) {
    for (const m of text.matchAll(/\S+/g)) if (++count === words) return m.index + m[0].length;
    return text.length;
  }
  for (const seg of s.segment(text))
    if (seg.isWordLike && ++count === words) return seg.index + seg.segment.length;
  return text.length;
};

/** Where the whole sentences at the text's start that hold at most `words` words end; 0 if none do. */
const sentencesEnd = (text: string, words: number): number => {
  const s = segmenter('sentence');
  if (!s) return 0;
  let end = 0;
  let count = 0;
  for (const seg of s.segment(text)) {
    count += countWords(seg.segment);
    if (count > words) break;
    end = seg.index + seg.segment.length;
  }
  return end;
};

/** The runs of a paragraph up to a character offset of its text (a line break counts as one). */
const runsUpTo = (runs: readonly EpisodeRun[], end: number, ellipsis: string): EpisodeRun[] => {
  const kept: EpisodeRun[] = [];
  let at = 0;
  for (const run of runs) {
    if (at >= end) break;
    const length = run.br ? 1 : run.text.length;
    kept.push(run.br ? run : { ...run, text: run.text.slice(0, end - at) });
    at += length;
  }
  while (kept.length && kept[kept.length - 1]!.br) kept.pop();
  const last = kept[kept.length - 1];
  if (last) last.text = last.text.trimEnd() + ellipsis;
  return kept;
};

const runHtml = (run: EpisodeRun): string => {
  if (run.br) return '<br>';
  let html = escapeEpisodeText(run.text);
  if (run.italic) html = `<em>${html}</em>`;
  if (run.bold) html = `<strong>${html}</strong>`;
  return html;
};

/** Blocks back to the stored form. */
const blocksHtml = (blocks: readonly EpisodeBlock[]): string =>
  blocks
    .map((b) => (b.type === 'break' ? '<hr>' : `<p>${b.runs.map(runHtml).join('')}</p>`))
    .join('');

/**
 * The opening of an episode, in the stored form: about `maxWords` words and never more than
 * half of the episode's, ending where a sentence ends. When even the first sentence is longer,
 * it ends at a word boundary with an ellipsis. Formatting and paragraphs are kept; '' when the
 * episode has too few words to give any away.
 */
export function episodeOpening(html: string, maxWords = OPENING_WORDS): string {
  const blocks = parseEpisodeHtml(html);
  const texts = blocks.map((b) => (b.type === 'p' ? paragraphText(b.runs) : ''));
  const counts = texts.map(countWords);
  const budget = Math.min(maxWords, Math.floor(counts.reduce((a, b) => a + b, 0) / 2));
  if (budget < 1) return '';
  const kept: EpisodeBlock[] = [];
  let used = 0;
  for (const [i, block] of blocks.entries()) {
    if (block.type === 'break') {
      if (kept.length) kept.push(block);
      continue;
    }
    if (used + counts[i]! <= budget) {
      kept.push(block);
      used += counts[i]!;
      continue;
    }
    const end = sentencesEnd(texts[i]!, budget - used);
    if (end > 0) kept.push({ type: 'p', runs: runsUpTo(block.runs, end, '') });
    else if (used === 0)
      kept.push({ type: 'p', runs: runsUpTo(block.runs, wordsEnd(texts[i]!, budget), '…') });
    break;
  }
  while (kept.length && kept[kept.length - 1]!.type === 'break') kept.pop();
  return blocksHtml(kept);
}
