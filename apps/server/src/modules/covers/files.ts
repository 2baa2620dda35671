/**
 * The WebP sizes every cover also has, as widths in pixels (the height is 1.5 times the width):
 * 160 and 320 for lists, 480 for a story's page on a phone's dense screen (144 CSS px at 3x), so
 * only share cards take the PNG.
 */
export const COVER_LIST_WIDTHS = [160, 320, 480] as const;
export type CoverListWidth = (typeof COVER_LIST_WIDTHS)[number];

/** The served file name: `story_cover_{id}.png` (SPEC.md 3), or a WebP list size. */
export const coverFileName = (storyId: number, width?: CoverListWidth): string =>
  width ? `story_cover_${storyId}_w${width}.webp` : `story_cover_${storyId}.png`;

/** Where a cover file lives in object storage. */
export const coverKey = (storyId: number, width?: CoverListWidth): string =>
  `covers/${coverFileName(storyId, width)}`;

/** Every file name the images route serves; anything else is refused before storage is asked. */
export const COVER_FILE_PATTERN = '^story_cover_[1-9][0-9]{0,9}(\\.png|_w(160|320|480)\\.webp)$';

/** The story and size a served file name stands for, or null when it is not a cover's name. */
export function parseCoverFile(file: string): { storyId: number; width?: CoverListWidth } | null {
  const m = /^story_cover_([1-9][0-9]{0,9})(?:\.png|_w(160|320|480)\.webp)$/.exec(file);
  if (!m) return null;
  const storyId = Number(m[1]);
  if (!Number.isSafeInteger(storyId)) return null;
  return m[2] ? { storyId, width: Number(m[2]) as CoverListWidth } : { storyId };
}
