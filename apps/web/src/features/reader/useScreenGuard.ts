import { useEffect, useEffectEvent } from 'react';
import { isWindowShrunk } from './rules.ts';

/** Runs `onShrunk` when the window is (or becomes) much smaller than its frame: on load and resize. */
export function useScreenGuard(active: boolean, onShrunk: () => void): void {
  const trip = useEffectEvent(onShrunk);
  useEffect(() => {
    if (!active) return;
    const check = () => {
      const { innerWidth, innerHeight, outerWidth, outerHeight, navigator } = window;
      if (
        isWindowShrunk({
          innerWidth,
          innerHeight,
          outerWidth,
          outerHeight,
          userAgent: navigator.userAgent,
        })
      )
        trip();
    };
    check();
    window.addEventListener('resize', check);
    return () => window.removeEventListener('resize', check);
  }, [active]);
}
