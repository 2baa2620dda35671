import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RATING_DEBOUNCE_MS } from '@kathamala/domain';
import { applyRating, rateStory } from '../../api/engagement.ts';
import { storeToken } from '../auth/session.ts';
import { createDebounced, type Debounced } from './debounce.ts';

export interface RatingStats {
  rating: number;
  /** Unknown until the first answer when the details answer does not carry it. */
  ratingCount?: number;
}

export type RatingStatus = 'idle' | 'saving' | 'saved' | 'cleared' | 'error';

/**
 * The reader's rating of a story: shown at once, sent RATING_DEBOUNCE_MS after the last change
 * (one request for a burst of claps or arrow presses), and sent at once if the page goes away.
 * The answer's token is kept like a refreshed one, and the story's rating follows the answer.
 */
export function useRating(storyId: number, initial: number, initialStats: RatingStats) {
  const client = useQueryClient();
  const [value, setValue] = useState(initial);
  const [stats, setStats] = useState(initialStats);
  const [status, setStatus] = useState<RatingStatus>('idle');
  const saved = useRef(initial);
  const mounted = useRef(false);
  const debounced = useRef<Debounced<number> | null>(null);

  if (debounced.current === null) {
    const d: Debounced<number> = createDebounced<number>((v) => {
      if (mounted.current) setStatus('saving');
      rateStory(storyId, v).then(
        (answer) => {
          storeToken(answer.accesstoken);
          applyRating(client, storyId, answer);
          saved.current = answer.userRating;
          if (!mounted.current) return;
          setStats({ rating: answer.rating, ratingCount: answer.ratingCount });
          // A newer change is on its way: keep showing it.
          if (d.pending()) return;
          setValue(answer.userRating);
          setStatus(answer.userRating > 0 ? 'saved' : 'cleared');
        },
        () => {
          if (!mounted.current || d.pending()) return;
          setValue(saved.current);
          setStatus('error');
        },
      );
    }, RATING_DEBOUNCE_MS);
    debounced.current = d;
  }

  useEffect(() => {
    mounted.current = true;
    const d = debounced.current;
    return () => {
      mounted.current = false;
      d?.flush();
    };
  }, []);

  const change = (next: number) => {
    setValue(next);
    setStatus('idle');
    debounced.current!.push(next);
  };

  return { value, stats, status, change };
}
