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
