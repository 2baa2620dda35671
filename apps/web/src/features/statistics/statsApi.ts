import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPaths, type AuthorStats, type StatsPeriod, type Summary } from '@kathamala/domain';
import { apiRequest } from '../../api/client.ts';

/*
 * The author's statistics (GET /api/v1/stats/author/) and summary (GET /api/v1/stats/summaryV2/):
 * personal, so fetched by the client with the token. Switching period keeps the last answer on
 * screen until the new one arrives, rather than flashing skeletons.
 */

/** Figures are rolled up every minute or so: a minute-old answer is still news. */
const FRESH_MS = 60_000;

/** object.stats for the period: per story, per episode and per day. */
export const useAuthorStats = (period: StatsPeriod, enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.statsAuthor(period)],
    queryFn: ({ signal }) =>
      apiRequest<{ stats: AuthorStats }>(apiPaths.statsAuthor(period), { signal }),
    select: (answer) => answer.stats,
    enabled,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });

/** object.summary for the period: totals with their change against the period before. */
export const useStatsSummary = (period: StatsPeriod, enabled: boolean) =>
  useQuery({
    queryKey: [apiPaths.statsSummary(period)],
    queryFn: ({ signal }) =>
      apiRequest<{ summary: Summary }>(apiPaths.statsSummary(period), { signal }),
    select: (answer) => answer.summary,
    enabled,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
