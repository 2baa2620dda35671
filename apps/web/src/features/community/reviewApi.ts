import { useQuery } from '@tanstack/react-query';
import {
  reviewPaths,
  type Decision,
  type DecisionAnswer,
  type ReviewItem,
  type ReviewPage,
  type ReviewWord,
} from '@kathamala/domain';
import { apiRequest } from '../../api/client.ts';

/** The editors' queue, oldest first; a reader's 403 is the page's answer, not retried. */
export const useReviewQueue = (page: number, enabled: boolean) => {
  const path = reviewPaths.queue(page);
  return useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => apiRequest<ReviewPage>(path, { signal }),
    enabled,
    staleTime: 0,
    retry: false,
  });
};

export const useReviewWords = (enabled: boolean) =>
  useQuery({
    queryKey: [reviewPaths.words()],
    queryFn: ({ signal }) => apiRequest<{ list: ReviewWord[] }>(reviewPaths.words(), { signal }),
    enabled,
    staleTime: 0,
    retry: false,
  });

/**
 * Decides an item, by the call its kind has. A 409 (another editor decided first) rejects with
 * the server's sentence, which the page shows as it is.
 */
export function decide(
  target: ReviewItem['target'],
  decision: Decision,
  reason?: string,
): Promise<DecisionAnswer> {
  const extra = reason ? { reason } : {};
  const send = (path: string, method: 'POST' | 'PUT', body: Record<string, unknown>) =>
    apiRequest<DecisionAnswer>(path, { method, body: { ...body, decision, ...extra } });
  switch (target.kind) {
    case 'post':
      return send(reviewPaths.decidePost(), 'POST', { post_id: target.id });
    case 'profile':
      return send(reviewPaths.decideProfile(), 'PUT', { id: target.id });
    case 'comment':
      return send(reviewPaths.decideComment(), 'POST', { commentId: target.id });
    default:
      return send(reviewPaths.decidePostComment(), 'POST', { id: target.id });
  }
}

export const addWord = (word: string) =>
  apiRequest<{ word: ReviewWord }>(reviewPaths.words(), { method: 'POST', body: { word } });

export const removeWord = (id: number) =>
  apiRequest<{ removed: boolean }>(reviewPaths.word(id), { method: 'DELETE' });
