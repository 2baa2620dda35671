import { QueryClient } from '@tanstack/react-query';
import { shouldRetry } from './api/queries.ts';

/** Lists change slowly and a phone on 3G pays for every request: keep answers for a minute. */
const STALE_MS = 60_000;

export const createQueryClient = (data: Record<string, unknown> = {}): QueryClient => {
  const client = new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_MS, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  // The server prefetched these by API path; the same path is the query key (BootData).
  for (const [path, object] of Object.entries(data)) client.setQueryData([path], object);
  return client;
};
