import { useEffect } from 'react';
import { saveProgress } from '../../api/engagement.ts';
import { PROGRESS_EVERY_MS, readPosition, worthSaving } from './progress.ts';

/**
 * Saves where the reader is in a part (SPEC.md: Continue reading on any device): when the text
 * first shows, then as they scroll at most every PROGRESS_EVERY_MS, and when they leave the part
 * or hide the page (with fetch keepalive, which outlives the page and carries the token).
 * `textSelector` finds the episode text whose extent the position is measured against.
 */
export function useReadingProgress(
  storyId: number,
  partNumber: number,
  shown: boolean,
  textSelector = '[data-episode-text]',
): void {
  useEffect(() => {
    if (!shown) return;
    let lastSent: number | null = null;
    let lastAt = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    // The last position measured: on leaving, the text may already be gone from the page.
    let latest: number | null = null;

    const measure = (): number | null => {
      const el = document.querySelector(textSelector);
      if (!el) return null;
      const box = el.getBoundingClientRect();
      return readPosition({ top: box.top, height: box.height }, window.innerHeight);
    };
    const send = (keepalive: boolean, position: number | null = measure() ?? latest) => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (position === null || !worthSaving(position, lastSent)) return;
      lastSent = position;
      lastAt = Date.now();
      void saveProgress({ storyId, partNumber, position }, keepalive);
    };
    const onScroll = () => {
      latest = measure() ?? latest;
      if (timer !== null) return;
      const wait = Math.max(0, lastAt + PROGRESS_EVERY_MS - Date.now());
      timer = setTimeout(() => send(false), wait);
    };
    const onHide = () => {
      if (document.visibilityState === 'hidden') send(true);
    };
    const onPageHide = () => send(true);

    // The first save, at once: Continue reading knows the part. The text may not be on the page
    // yet (its part of the page hydrates in a later slice than this hook's): then once it is.
    let waitForText: MutationObserver | null = null;
    latest = measure();
    if (latest !== null) send(false);
    else {
      waitForText = new MutationObserver(() => {
        const position = measure();
        if (position === null) return;
        waitForText?.disconnect();
        waitForText = null;
        latest = position;
        send(false, position);
      });
      waitForText.observe(document.body, { childList: true, subtree: true });
    }
    window.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      waitForText?.disconnect();
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onPageHide);
      // Leaving the part (another part, another page): keep the last position measured here, as
      // the page may already show the next part's text.
      send(true, latest);
    };
  }, [storyId, partNumber, shown, textSelector]);
}
