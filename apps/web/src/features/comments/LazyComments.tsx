import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import styles from './comments.module.css';

const CommentsSection = lazy(() => import('./CommentsSection.tsx'));

/**
 * Where the responses go: the section (its code and its comments) is fetched only when this place
 * comes near the screen, so the episode text paints first on a slow phone.
 */
export function LazyComments(props: { storyId: number; episode: number; episodeId: number }) {
  const { t } = useI18n();
  const slot = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const el = slot.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);

  return (
    <div ref={slot} className={styles.slot}>
      {near && (
        <Suspense
          fallback={
            <p className={styles.loading} role="status">
              {t('comments.loading')}
            </p>
          }
        >
          <CommentsSection key={`${props.storyId}-${props.episode}`} {...props} />
        </Suspense>
      )}
    </div>
  );
}
