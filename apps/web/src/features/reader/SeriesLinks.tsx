import { Link } from 'react-router';
import { detailsPath } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import styles from './reader.module.css';

/** The seasons of a series: `series` is [seriesId, ...season storyIds] (SPEC.md 3). */
export function SeriesLinks(props: { series: number[]; storyId: number }) {
  const { t } = useI18n();
  const seasons = props.series.slice(1);
  if (seasons.length === 0) return null;
  return (
    <section className={styles.series} aria-labelledby="series-heading">
      <h2 id="series-heading" className={ui.sectionTitle}>
        {t('details.series')}
      </h2>
      <ol className={ui.chips}>
        {seasons.map((id, i) => (
          <li key={id}>
            <Link
              className={ui.chip}
              to={detailsPath(id)}
              aria-current={id === props.storyId ? 'page' : undefined}
              title={id === props.storyId ? t('details.current') : undefined}
            >
              {t('details.season', { n: i + 1 })}
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
