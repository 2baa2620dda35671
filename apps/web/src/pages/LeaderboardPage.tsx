import { Link } from 'react-router';
import { useStoryList } from '../api/queries.ts';
import { InfoNotice } from '../components/Notice.tsx';
import { StoryCard } from '../features/stories/StoryCard.tsx';
import { StoryGrid } from '../features/stories/StoryGrid.tsx';
import { TrendingList } from '../features/stories/TrendingList.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import styles from '../components/page.module.css';
import own from './LeaderboardPage.module.css';

/** How many top-rated stories the board shows. */
const TOP = 10;

/**
 * /leaderboard/: for now the stories readers rate highest (the Bayesian order of sortBy=rate)
 * and what is trending this week. Author rankings come with campaigns (a later issue).
 */
export default function LeaderboardPage() {
  const { t } = useI18n();
  useDocumentTitle(t('leaderboard.title'));
  const top = useStoryList({ page: 1, sortBy: 'rate', ongoing: 'both' });

  return (
    <div className={styles.page}>
      <section className={styles.stories} aria-labelledby="top-rated">
        <div className={styles.listHead}>
          <h1 className={styles.heading}>{t('leaderboard.title')}</h1>
          <p className={styles.lead}>{t('leaderboard.lead')}</p>
          <p className={own.note}>{t('leaderboard.rankingsSoon')}</p>
        </div>
        <h2 id="top-rated" className={own.subheading}>
          {t('leaderboard.topRated')}
        </h2>
        {top.data ? (
          top.data.stories.length === 0 ? (
            <InfoNotice>{t('home.empty')}</InfoNotice>
          ) : (
            <ol className={own.ranked}>
              {top.data.stories.slice(0, TOP).map((story, i) => (
                <li key={story.storyId} className={own.rankedItem}>
                  <span className={own.rank} aria-hidden="true">
                    {i + 1}
                  </span>
                  <StoryCard story={story} eager={i < 2} />
                </li>
              ))}
            </ol>
          )
        ) : (
          <StoryGrid stories={undefined} error={top.error} onRetry={() => void top.refetch()} />
        )}
        <p>
          <Link to="/?sort=rate">{t('leaderboard.more')}</Link>
        </p>
      </section>
      <aside className={styles.aside} aria-label={t('leaderboard.trending')}>
        <TrendingList />
      </aside>
    </div>
  );
}
