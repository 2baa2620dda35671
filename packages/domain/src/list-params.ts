import { MAX_PAGE } from './constants.ts';
import type { OngoingFilter, SortBy } from './schemas/stories.ts';

export const SORTS: readonly SortBy[] = ['rate', 'new', 'reads'];
export const ONGOING: readonly OngoingFilter[] = ['both', 'true', 'false'];

// A page address's list settings, read as the page reads them (anything odd is the default),
// so the server prefetches exactly the list the page will ask for.

/** The `page` of a list page's address: a whole number from 1 to MAX_PAGE, else 1. */
export const parsePage = (raw: string | null): number => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE ? n : 1;
};

/** The `sort` of a list page's address, else 'rate'. */
export const parseSort = (raw: string | null): SortBy =>
  SORTS.includes(raw as SortBy) ? (raw as SortBy) : 'rate';

/** The `status` of a list page's address, else 'both'. */
export const parseOngoing = (raw: string | null): OngoingFilter =>
  ONGOING.includes(raw as OngoingFilter) ? (raw as OngoingFilter) : 'both';
