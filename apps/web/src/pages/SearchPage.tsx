import { useSearchParams } from 'react-router';
import { useSearch } from '../api/queries.ts';
import { InfoNotice } from '../components/Notice.tsx';
import { Pagination } from '../features/stories/Pagination.tsx';
import { StoryGrid } from '../features/stories/StoryGrid.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { listHref, parsePage } from './listParams.ts';
import styles from '../components/page.module.css';

/** /search?q=: stories whose title, author or text match. */
export default function SearchPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const page = parsePage(params.get('page'));
  const search = useSearch(q, page);
  useDocumentTitle(q ? `${q} – ${t('search.title')}` : t('search.title'));
  const total = search.data?.total ?? 0;

  return (
    <section className={styles.stories} aria-labelledby="search-heading">
      <div className={styles.listHead}>
        <h1 id="search-heading" className={styles.heading}>
          {q ? t('search.resultsFor', { q }) : t('search.title')}
        </h1>
        {search.data && total > 0 && (
          <p className={styles.lead} role="status">
            {t('search.count', { n: total })}
          </p>
        )}
      </div>
      {!q ? (
        <InfoNotice>{t('search.prompt')}</InfoNotice>
      ) : (
        <>
          <StoryGrid
            stories={search.data?.stories}
            error={search.error}
            onRetry={() => void search.refetch()}
            empty={t('search.empty', { q })}
            stale={search.isPlaceholderData}
          />
          {search.data && (
            <Pagination
              page={search.data.page}
              pageSize={search.data.pageSize}
              total={search.data.total}
              hrefFor={(p) => listHref('/search', { q, page: p }, { page: 1 })}
            />
          )}
        </>
      )}
    </section>
  );
}
