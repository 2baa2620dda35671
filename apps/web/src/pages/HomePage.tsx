import { Link, useSearchParams } from 'react-router';
import { usePremium, useStoryList, useUpcoming } from '../api/queries.ts';
import { CompactStoryList } from '../features/stories/CompactStoryList.tsx';
import { PagedStoryGrid } from '../features/stories/PagedStoryGrid.tsx';
import { TrendingList } from '../features/stories/TrendingList.tsx';
import { UpcomingList } from '../features/stories/UpcomingList.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import { listHref, ONGOING, parseOngoing, parsePage, parseSort, SORTS } from './listParams.ts';
import styles from '../components/page.module.css';

const DEFAULTS = { sort: 'rate', status: 'both', page: 1 };

/** Home: the stories themselves first, then trending, upcoming and members' stories. */
export default function HomePage() {
  const { t } = useI18n();
  useDocumentTitle();
  const [params] = useSearchParams();
  const sortBy = parseSort(params.get('sort'));
  const ongoing = parseOngoing(params.get('status'));
  const page = parsePage(params.get('page'));
  const list = useStoryList({ page, sortBy, ongoing });
  const href = (change: Partial<{ sort: string; status: string; page: number }>) =>
    listHref('/', { sort: sortBy, status: ongoing, page: 1, ...change }, DEFAULTS);

  return (
    <div className={styles.page}>
      <section className={styles.stories} aria-labelledby="stories-heading">
        <div className={styles.listHead}>
          <h1 id="stories-heading" className={styles.heading}>
            {t('home.stories')}
          </h1>
          <div className={styles.controls}>
            <nav aria-label={t('home.sort')}>
              <ul className={ui.chips}>
                {SORTS.map((s) => (
                  <li key={s}>
                    <Link
                      className={ui.chip}
                      to={href({ sort: s })}
                      aria-current={s === sortBy ? 'page' : undefined}
                    >
                      {t(`sort.${s}`)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <nav aria-label={t('filter.label')} className={styles.controlRow}>
              <span className={styles.controlLabel} aria-hidden="true">
                {t('filter.label')}
              </span>
              <ul className={ui.chips}>
                {ONGOING.map((o) => (
                  <li key={o}>
                    <Link
                      className={ui.chip}
                      to={href({ status: o })}
                      aria-current={o === ongoing ? 'page' : undefined}
                    >
                      {t(`filter.${o}`)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </div>
        <PagedStoryGrid list={list} hrefFor={(p) => href({ page: p })} />
      </section>
      <aside className={styles.aside}>
        <TrendingList />
        <Upcoming />
        <Premium />
      </aside>
    </div>
  );
}

/** Side lists fail silently: the page is still useful without them. */
function Upcoming() {
  const { data } = useUpcoming();
  return <UpcomingList items={data?.upcomingStories ?? []} />;
}

function Premium() {
  const { t } = useI18n();
  const { data } = usePremium();
  return (
    <CompactStoryList
      id="premium-heading"
      title={t('home.premium')}
      stories={data?.premium ?? []}
    />
  );
}
