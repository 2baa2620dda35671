import { SCREEN_GUARD_HEIGHT_RATIO, SCREEN_GUARD_WIDTH_RATIO } from '@kathamala/domain';

export interface WindowSize {
  innerWidth: number;
  innerHeight: number;
  outerWidth: number;
  outerHeight: number;
  userAgent: string;
}

/**
 * The anti-copy guard of SPEC.md 2: true when the page is much smaller than its window (docked
 * developer tools, usually). Not on iPhone, whose browser chrome makes the sizes meaningless, and
 * not when the browser reports no outer size at all.
 */
export const isWindowShrunk = (w: WindowSize): boolean => {
  if (/iPhone/i.test(w.userAgent)) return false;
  if (w.outerWidth === 0 || w.outerHeight === 0) return false;
  return (
    w.innerWidth < SCREEN_GUARD_WIDTH_RATIO * w.outerWidth ||
    w.innerHeight < SCREEN_GUARD_HEIGHT_RATIO * w.outerHeight
  );
};

export type PageSlot = number | 'gap';

/**
 * The numbered pages to show for `total` episodes around `current`: always the first and the
 * last, a window around the current one, and gaps where numbers are left out.
 */
export const pageSlots = (current: number, total: number, around = 1): PageSlot[] => {
  if (total <= 0) return [];
  const wanted = new Set<number>([1, total]);
  for (let n = current - around; n <= current + around; n++)
    if (n >= 1 && n <= total) wanted.add(n);
  // Fill a gap of one number rather than showing '…' for it.
  const sorted = [...wanted].sort((a, b) => a - b);
  const slots: PageSlot[] = [];
  sorted.forEach((n, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && n - prev === 2) slots.push(prev + 1);
    else if (prev !== undefined && n - prev > 2) slots.push('gap');
    slots.push(n);
  });
  return slots;
};
