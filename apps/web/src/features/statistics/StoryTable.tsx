import { Link } from 'react-router';
import { formatCount, type StoryStats } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { topStories } from './model.ts';
import styles from './statistics.module.css';

/**
 * Every story of the author with its figures, most read first; Details shows one story's
 * charts (the link keeps the period). On a phone each row becomes a small card.
 */
export function StoryTable(props: {
  stories: StoryStats[];
  chosenId: number | null;
  hrefFor: (storyId: number) => string;
}) {
  const { t } = useI18n();
  const columns = [
    t('stats.colReads'),
    t('stats.colAllTime'),
    t('stats.colReaders'),
    t('stats.colRating'),
    t('stats.colComments'),
    t('stats.colBookmarks'),
    t('stats.colAlerts'),
    t('stats.colMembers'),
  ];
  return (
    <section className={styles.storiesBox}>
      <div className={styles.sectionHead}>
        <h2 id="stats-stories" className={styles.sectionTitle}>
          {t('stats.stories')}
        </h2>
        <p className={styles.sectionNote}>{t('stats.storiesNote')}</p>
      </div>
      {/* Wider than a small screen: it scrolls in its box, never the page. */}
      <div
        className={styles.tableScroll}
        tabIndex={0}
        role="region"
        aria-labelledby="stats-stories"
      >
        <table className={styles.storyTable}>
          <thead>
            <tr>
              <th scope="col">{t('stats.colStory')}</th>
              {columns.map((c) => (
                <th key={c} scope="col" className={styles.num}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {topStories(props.stories).map((s) => {
              const chosen = s.storyId === props.chosenId;
              const cells = [
                formatCount(s.reads),
                formatCount(s.readsTotal),
                formatCount(s.episodes.find((e) => e.partNumber === 1)?.readers ?? 0),
                s.ratingAverage === null ? '–' : `${s.ratingAverage.toFixed(1)} (${s.ratingCount})`,
                formatCount(s.comments),
                formatCount(s.bookmarks),
                formatCount(s.alertSubscribers),
                formatCount(s.membersGained),
              ];
              return (
                <tr key={s.storyId} className={chosen ? styles.chosenRow : undefined}>
                  <th scope="row" className={styles.storyCell}>
                    <span lang={storyLang(s.language)} className={styles.storyTitle}>
                      {s.title}
                    </span>
                    {s.membersOnly && (
                      <span className={styles.badge}>{t('stats.membersOnly')}</span>
                    )}
                    <Link
                      to={props.hrefFor(s.storyId)}
                      className={styles.detailsLink}
                      aria-current={chosen ? 'true' : undefined}
                      aria-label={t('stats.detailsOf', { title: s.title })}
                    >
                      {chosen ? t('stats.shown') : t('stats.details')}
                    </Link>
                  </th>
                  {cells.map((cell, i) => (
                    <td key={i} className={styles.num} data-label={columns[i]}>
                      {cell}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
