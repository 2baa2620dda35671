/**
 * Whether a story has no page for this part number: part 0, or past its last part (404). Part 1
 * always has a page, even before a story has parts (an upcoming story shows its release date).
 */
export const isMissingPart = (partNumber: number, numberOfparts: number): boolean =>
  partNumber < 1 || partNumber > Math.max(1, numberOfparts);
