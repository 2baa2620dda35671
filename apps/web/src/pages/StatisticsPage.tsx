import { Link, Navigate } from 'react-router';
import { detailsPath, formatCount, type OwnStory } from '@kathamala/domain';
import { useOwnStories } from '../api/authoring.ts';
import { ErrorNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { storyLang } from '../features/stories/lang.ts';
import { useI18n, type MessageKey } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import styles from './StatisticsPage.module.css';

const WRITE_PATH = '/publish/story/';

const STATUS_KEYS: Record<OwnStory['status'], MessageKey> = {
  public: 'stats.statusPublic',
  upcoming: 'stats.statusUpcoming',
  draft: 'stats.statusDraft',
};

/** /statistics/: authors only (SPEC.md 2, 6); everyone else is sent home. */
export default function StatisticsPage() {
  const { t } = useI18n();
  const session = useSession();
  useDocumentTitle(t('stats.title'));
  const isAuthor = session.status === 'reader' && session.author;
  const own = useOwnStories(isAuthor);

  if (session.status === 'visitor' || (session.status === 'reader' && !session.author))
    return <Navigate to="/" replace />;

  let body;
  if (session.status === 'unknown' || own.isPending)
    body = <SkeletonLines lines={6} label={t('common.loading')} />;
  else if (own.isError) body = <ErrorNotice error={own.error} onRetry={() => void own.refetch()} />;
  else if (own.data.stories.length === 0)
    body = (
      <div className={styles.empty}>
        <p>{t('stats.empty')}</p>
        <Link className={ui.button} to={WRITE_PATH}>
          {t('stats.write')}
        </Link>
      </div>
    );
  else body = <StoryStats stories={own.data.stories} />;

  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <h1 className={styles.heading}>{t('stats.title')}</h1>
        <p className={styles.lead}>{t('stats.lead')}</p>
      </header>
      {body}
    </div>
  );
}

function StoryStats({ stories }: { stories: OwnStory[] }) {
  const { t } = useI18n();
  const totals = stories.reduce(
    (sum, s) => ({
      reads: sum.reads + s.reads,
      stories: sum.stories + (s.status === 'public' ? 1 : 0),
      episodes: sum.episodes + s.counts.published,
    }),
    { reads: 0, stories: 0, episodes: 0 },
  );
  return (
    <>
      <dl className={styles.totals}>
        <div className={styles.total}>
          <dt>{t('stats.totalReads')}</dt>
          <dd>{formatCount(totals.reads)}</dd>
        </div>
        <div className={styles.total}>
          <dt>{t('stats.totalStories')}</dt>
          <dd>{totals.stories}</dd>
        </div>
        <div className={styles.total}>
          <dt>{t('stats.totalEpisodes')}</dt>
          <dd>{totals.episodes}</dd>
        </div>
      </dl>
      {/* Should the table ever be wider than the screen, it scrolls in its box, not the page. */}
      <div className={styles.tableBox} tabIndex={0} role="region" aria-labelledby="stats-caption">
        <table className={styles.table}>
          <caption id="stats-caption" className={styles.caption}>
            {t('stats.caption')}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('stats.story')}</th>
              <th scope="col">{t('stats.status')}</th>
              <th scope="col" className={styles.number}>
                {t('stats.episodes')}
              </th>
              <th scope="col" className={styles.number}>
                {t('stats.reads')}
              </th>
              <th scope="col" className={styles.number}>
                {t('stats.rating')}
              </th>
            </tr>
          </thead>
          <tbody>
            {stories.map((story) => (
              <StoryRow key={story.storyId} story={story} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function StoryRow({ story }: { story: OwnStory }) {
  const { t } = useI18n();
  const extra = [
    story.counts.scheduled > 0 && t('stats.scheduled', { n: story.counts.scheduled }),
    story.counts.drafts > 0 && t('stats.drafts', { n: story.counts.drafts }),
  ].filter(Boolean);
  return (
    <tr>
      <th scope="row" className={styles.title}>
        {story.status === 'public' ? (
          <Link to={detailsPath(story.storyId)} lang={storyLang(story.language)}>
            {story.title}
          </Link>
        ) : (
          <span lang={storyLang(story.language)}>{story.title}</span>
        )}
        <Link className={styles.edit} to={`${WRITE_PATH}?story=${story.storyId}`}>
          {t('stats.edit')}
          <span className="visually-hidden"> {story.title}</span>
        </Link>
      </th>
      <td className={styles.statusCell}>
        <span className={`${styles.status} ${styles[story.status] ?? ''}`}>
          {t(STATUS_KEYS[story.status])}
        </span>
        {extra.length > 0 && <span className={styles.extra}>{extra.join(' · ')}</span>}
      </td>
      {/* data-label names the number where a phone shows rows as cards, without the header. */}
      <td className={styles.number} data-label={t('stats.episodes')}>
        {story.numberOfparts}
      </td>
      <td className={styles.number} data-label={t('stats.reads')}>
        {formatCount(story.reads)}
      </td>
      <td className={styles.number} data-label={t('stats.rating')}>
        {story.rating > 0 ? story.rating.toFixed(1) : '–'}
      </td>
    </tr>
  );
}
