import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { positionFromHash, scrollTopFor } from './progress.ts';

/**
 * Continue reading opens a part with `#at=0.42`: once its text is on screen, scroll to where the
 * reader stopped (on any device), then drop the fragment so a reload or a shared link starts
 * at the top. Runs before the progress hook measures, so the saved place is not overwritten.
 */
export function useResumePosition(shown: boolean, textSelector = '[data-episode-text]'): void {
  const { hash } = useLocation();
  useEffect(() => {
    const position = positionFromHash(hash);
    if (!shown || position === null) return;
    const go = () => {
      const el = document.querySelector(textSelector);
      if (!el) return;
      const box = el.getBoundingClientRect();
      window.scrollTo(0, scrollTopFor(position, box, window.scrollY, window.innerHeight));
    };
    go();
    // Page-level scroll handling runs after this effect on a route change: settle once more.
    const frame = requestAnimationFrame(go);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    return () => cancelAnimationFrame(frame);
  }, [shown, hash, textSelector]);
}
