export { ONGOING, parseOngoing, parsePage, parseSort, SORTS } from '@kathamala/domain';

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
