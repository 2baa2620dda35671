import { Link } from 'react-router';
import type { OwnStory, StoryStatus } from '@kathamala/domain';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { useCoverSrc } from './CoverPanel.tsx';
import styles from './publish.module.css';

/** How many episodes stand where, as one short line ('2 published · 1 scheduled'). */
export function countsLine(counts: OwnStory['counts'], t: Translate): string {
  const parts = [t('publish.countPublished', { n: counts.published })];
  if (counts.scheduled) parts.push(t('publish.countScheduled', { n: counts.scheduled }));
  if (counts.drafts) parts.push(t('publish.countDrafts', { n: counts.drafts }));
  return parts.join(' · ');
}

const STATUS_CLASS: Record<StoryStatus, string | undefined> = {
  draft: styles.statusDraft,
  upcoming: styles.statusScheduled,
  public: styles.statusPublished,
};

export function StoryStatusBadge({ status }: { status: StoryStatus }) {
  const { t } = useI18n();
  return (
    <span className={`${styles.status} ${STATUS_CLASS[status] ?? ''}`}>
      {t(`publish.storyStatus.${status}`)}
    </span>
  );
}

/** The author's stories, each a link that opens it in the workspace. */
export function StoryList(props: { stories: OwnStory[]; selected: number | null }) {
  const { t } = useI18n();
  if (props.stories.length === 0) return <p className={styles.empty}>{t('publish.noStories')}</p>;
  return (
    <ul className={styles.storyList}>
      {props.stories.map((s) => (
        <li key={s.storyId}>
          <StoryItem story={s} current={s.storyId === props.selected} t={t} />
        </li>
      ))}
    </ul>
  );
}

function StoryItem({ story, current, t }: { story: OwnStory; current: boolean; t: Translate }) {
  const src = useCoverSrc(story.storyId);
  return (
    <Link
      className={styles.storyItem}
      to={`?story=${story.storyId}`}
      aria-current={current ? 'page' : undefined}
    >
      <img className={styles.storyThumb} src={src} alt="" width={48} height={72} loading="lazy" />
      <span className={styles.storyItemText}>
        <span className={styles.itemTitle} lang={storyLang(story.language)}>
          {story.title}
        </span>
        <span className={styles.itemMeta}>
          <StoryStatusBadge status={story.status} />
          <span>{countsLine(story.counts, t)}</span>
        </span>
      </span>
    </Link>
  );
}
