import { Link } from 'react-router';
import { detailsPath } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { pageSlots } from './rules.ts';
import styles from './reader.module.css';

/** One episode per page: numbered pages, previous and next, and New for the latest episode. */
export function EpisodePager(props: { storyId: number; current: number; total: number }) {
  const { t } = useI18n();
  const { storyId, current, total } = props;
  if (total < 1) return null;
  const href = (n: number) => detailsPath(storyId, n);
  return (
    <nav className={styles.pager} aria-label={t('pager.label')}>
      <div className={styles.pagerEnds}>
        {current > 1 ? (
          <Link className={styles.pagerStep} to={href(current - 1)} rel="prev">
            <span aria-hidden="true">‹</span>
            {` ${t('pager.prev')}`}
          </Link>
        ) : (
          <span className={styles.pagerStep} aria-disabled="true">
            <span aria-hidden="true">‹</span>
            {` ${t('pager.prev')}`}
          </span>
        )}
        <Link
          className={styles.pagerNew}
          to={href(total)}
          title={t('pager.newHint')}
          aria-current={current === total ? 'page' : undefined}
        >
          {t('pager.new')}
        </Link>
        {current < total ? (
          <Link className={styles.pagerStep} to={href(current + 1)} rel="next">
            {`${t('pager.next')} `}
            <span aria-hidden="true">›</span>
          </Link>
        ) : (
          <span className={styles.pagerStep} aria-disabled="true">
            {`${t('pager.next')} `}
            <span aria-hidden="true">›</span>
          </span>
        )}
      </div>
      <ol className={styles.pagerNumbers}>
        {pageSlots(current, total).map((slot, i) =>
          slot === 'gap' ? (
            <li key={`gap-${i}`} className={styles.pagerGap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={slot}>
              <Link
                className={styles.pagerNumber}
                to={href(slot)}
                aria-label={t('pager.episode', { n: slot })}
                aria-current={slot === current ? 'page' : undefined}
              >
                {slot}
              </Link>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
