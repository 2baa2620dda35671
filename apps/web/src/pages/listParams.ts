import { MAX_PAGE, type SortBy } from '@kathamala/domain';
import type { OngoingFilter } from '../api/queries.ts';

export const SORTS: readonly SortBy[] = ['rate', 'new', 'reads'];
export const ONGOING: readonly OngoingFilter[] = ['both', 'true', 'false'];

export const parsePage = (raw: string | null): number => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE ? n : 1;
};

export const parseSort = (raw: string | null): SortBy =>
  SORTS.includes(raw as SortBy) ? (raw as SortBy) : 'rate';

export const parseOngoing = (raw: string | null): OngoingFilter =>
  ONGOING.includes(raw as OngoingFilter) ? (raw as OngoingFilter) : 'both';

/** A page address with its list settings in the query, leaving defaults out. */
export const listHref = (
  path: string,
  q: Record<string, string | number | undefined>,
  defaults: Record<string, string | number>,
) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(q)) {
    if (value !== undefined && value !== '' && value !== defaults[key])
      search.set(key, String(value));
  }
  const s = search.toString();
  return s ? `${path}?${s}` : path;
};
