import { useEffect } from 'react';
import { VIEW_AFTER_MS } from '@kathamala/domain';
import { recordView } from '../../api/engagement.ts';
import { getToken } from '../auth/session.ts';

/**
 * Counts a view VIEW_AFTER_MS (60 s) after a part's text is shown, only with a token (SPEC.md 4):
 * once per load of a part. Another part restarts the clock; leaving the page cancels it.
 */
export function useRecordView(storyId: number, partNumber: number, shown: boolean): void {
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => {
      if (getToken()) recordView(storyId, partNumber).catch(() => {});
    }, VIEW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [storyId, partNumber, shown]);
}
