import { detailsPath, type Progress } from '@kathamala/domain';

/** Past this far down an episode the reader has finished it. */
export const FINISHED_POSITION = 0.95;

/**
 * Where Continue takes a reader: the part they were in, or the next one when they had read to its
 * end and another is out. No progress: part 1. Never past the last published part.
 */
export function continuePart(progress: Progress | null, numberOfparts: number): number {
  const last = Math.max(1, numberOfparts);
  if (!progress) return 1;
  const part = Math.min(Math.max(1, progress.partNumber), last);
  return progress.position >= FINISHED_POSITION && part < last ? part + 1 : part;
}

/**
 * The fragment that brings a reader back to where they stopped inside the part Continue opens
 * (`#at=0.42`), or '' when they start it from the top (a new part, barely begun, or finished).
 */
export function resumeHash(progress: Progress | null, part: number): string {
  if (!progress || progress.partNumber !== part) return '';
  const at = Math.round(progress.position * 1000) / 1000;
  return at > 0.02 && at < FINISHED_POSITION ? `#at=${at}` : '';
}

/**
 * Where a reader is in a story, as every list that offers Continue says it: the part Continue
 * opens (the one source of truth for /bookmarks/ and home's Continue reading) and its address.
 */
export function readingPlace(
  storyId: number,
  progress: Progress | null,
  numberOfparts: number,
): { part: number; total: number; href: string } {
  const part = continuePart(progress, numberOfparts);
  return {
    part,
    total: Math.max(1, numberOfparts),
    href: detailsPath(storyId, part) + resumeHash(progress, part),
  };
}
