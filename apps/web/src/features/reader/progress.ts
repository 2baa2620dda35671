/** How far down the episode text the reader has come, 0 to 1: the part of it above the screen's bottom. */
export const readPosition = (
  text: { top: number; height: number },
  viewportHeight: number,
): number => {
  if (text.height <= 0) return 0;
  const seen = (viewportHeight - text.top) / text.height;
  return Math.round(Math.min(1, Math.max(0, seen)) * 1000) / 1000;
};

/** At most one progress save in this many milliseconds while the reader moves. */
export const PROGRESS_EVERY_MS = 5_000;

/** Whether a new position is worth a save: it moved by at least 1 % since the last one sent. */
export const worthSaving = (position: number, lastSent: number | null): boolean =>
  lastSent === null || Math.abs(position - lastSent) >= 0.01;

/** The position a `#at=0.42` fragment asks for, or null when it is not one. */
export const positionFromHash = (hash: string): number | null => {
  const m = /^#at=(0(?:\.\d{1,3})?|1)$/.exec(hash);
  return m ? Number(m[1]) : null;
};

/** The window scroll that puts the reader back at `position` (the inverse of readPosition). */
export const scrollTopFor = (
  position: number,
  text: { top: number; height: number },
  scrollY: number,
  viewportHeight: number,
): number =>
  Math.max(0, Math.round(scrollY + text.top - (viewportHeight - position * text.height)));
