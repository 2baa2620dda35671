import { Link } from 'react-router';
import { detailsPath, formatCount } from '@kathamala/domain';
import { useTrending } from '../../api/queries.ts';
import { Cover } from '../../components/Cover.tsx';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import { storyLang, textLang } from './lang.ts';
import styles from './stories.module.css';

/**
 * TRENDING (SPEC.md 2): shown only when the list has items; a failed load stays silent. Each item
 * opens that story at part 1 through client navigation.
 */
export function TrendingList(props: { excludeStoryId?: number }) {
  const { t } = useI18n();
  const { data } = useTrending();
  const items = (data?.trending ?? []).filter((item) => item.storyId !== props.excludeStoryId);
  if (items.length === 0) return null;
  return (
    <section className={styles.side} aria-labelledby="trending-heading">
      <h2 id="trending-heading" className={ui.sectionTitle}>
        {t('home.trending')}
      </h2>
      <ol className={styles.compactList}>
        {items.map((item) => {
          const lang = storyLang(item.language);
          return (
            <li key={item.storyId} className={styles.compactItem}>
              <Cover storyId={item.storyId} alt="" width={56} className={styles.compactCover} />
              <div className={styles.compactBody}>
                <h3 className={styles.compactTitle} lang={lang}>
                  <Link to={detailsPath(item.storyId)} className={styles.stretched}>
                    {item.title}
                  </Link>
                </h3>
                <p className={styles.author} lang={textLang(item.author)}>
                  {item.author}
                </p>
                <p className={styles.compactReads}>
                  {/* One text node after the count, as in the server's HTML (see StoryMeta). */}
                  <strong>{formatCount(item.reads)}</strong>
                  {` ${t('story.reads')}`}
                </p>
                {/* Whole, clamped by the stylesheet (as on a story card). */}
                <p className={styles.compactDescription} lang={lang}>
                  {item.description}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
