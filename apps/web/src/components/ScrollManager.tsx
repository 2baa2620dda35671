import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const storyOf = (pathname: string) => /^\/details\/(\d+)\//.exec(pathname)?.[1];

/**
 * New pages start at the top; moving between episodes of the same story starts at the episode.
 * Back and forward leave the position to the browser.
 */
export function ScrollManager() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef(pathname);

  useEffect(() => {
    const from = previous.current;
    previous.current = pathname;
    if (from === pathname || navigationType === 'POP') return;
    const story = storyOf(pathname);
    if (story && story === storyOf(from)) {
      // The episode header appears once the part has loaded; until then the top of the reading area.
      const target = document.getElementById('episode') ?? document.getElementById('main');
      target?.scrollIntoView({ block: 'start' });
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname, navigationType]);

  return null;
}
