import { Link } from 'react-router';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import styles from './stories.module.css';

/** Previous / Page x of y / Next for a list; plain links, so it works before hydration too. */
export function Pagination(props: {
  page: number;
  pageSize: number;
  total: number;
  hrefFor: (page: number) => string;
}) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(props.total / Math.max(1, props.pageSize)));
  if (pages <= 1) return null;
  const { page } = props;
  return (
    <nav className={styles.pagination} aria-label={t('pager.pageOf', { page, pages })}>
      {page > 1 ? (
        <Link
          className={ui.buttonSecondary}
          to={props.hrefFor(page - 1)}
          rel="prev"
          aria-label={t('pager.prevPage')}
        >
          <span aria-hidden="true">‹</span>
          {` ${t('pager.prev')}`}
        </Link>
      ) : (
        <span />
      )}
      <span className={styles.pageOf}>{t('pager.pageOf', { page, pages })}</span>
      {page < pages ? (
        <Link
          className={ui.buttonSecondary}
          to={props.hrefFor(page + 1)}
          rel="next"
          aria-label={t('pager.nextPage')}
        >
          {`${t('pager.next')} `}
          <span aria-hidden="true">›</span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
