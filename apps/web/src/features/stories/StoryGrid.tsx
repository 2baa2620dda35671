import type { StoryListItem } from '@kathamala/domain';
import { HydrateLater } from '../../components/HydrateLater.tsx';
import { ErrorNotice, InfoNotice } from '../../components/Notice.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { StoryCard, StoryCardSkeleton } from './StoryCard.tsx';
import styles from './stories.module.css';

/** Covers in the first screen load at once; the rest wait until they are scrolled near. */
const EAGER_COVERS = 2;
const SKELETON_CARDS = 6;

/** A list of story cards with its loading, failure and empty states. */
export function StoryGrid(props: {
  stories: StoryListItem[] | undefined;
  error: unknown;
  onRetry: () => void;
  empty?: string;
  eagerCovers?: boolean;
  stale?: boolean;
  /** The cards' heading level (2, under a page's h1, unless the list is under an h2). */
  headingLevel?: 2 | 3;
}) {
  const { t } = useI18n();
  if (props.stories === undefined) {
    if (props.error) return <ErrorNotice error={props.error} onRetry={props.onRetry} />;
    return (
      <div className={styles.grid} role="status" aria-busy="true">
        <span className="visually-hidden">{t('common.loading')}</span>
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <StoryCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (props.stories.length === 0) return <InfoNotice>{props.empty ?? t('home.empty')}</InfoNotice>;
  return (
    <ul
      className={`${styles.grid} ${props.stale ? styles.stale : ''}`}
      aria-busy={props.stale || undefined}
    >
      {props.stories.map((story, i) => (
        <li key={story.storyId}>
          {/* Each card hydrates in a task of its own (one <article>). */}
          <HydrateLater>
            <StoryCard
              story={story}
              eager={props.eagerCovers && i < EAGER_COVERS}
              headingLevel={props.headingLevel}
            />
          </HydrateLater>
        </li>
      ))}
    </ul>
  );
}
