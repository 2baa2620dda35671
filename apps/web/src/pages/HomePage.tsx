import { Link, useSearchParams } from 'react-router';
import { usePremium, useStoryList, useUpcoming } from '../api/queries.ts';
import { useContinueReading } from '../api/social.ts';
import { Cover } from '../components/Cover.tsx';
import { HydrateLater } from '../components/HydrateLater.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { GuardNotice } from '../features/reader/GuardNotice.tsx';
import { storyLang } from '../features/stories/lang.ts';
import { CompactStoryList } from '../features/stories/CompactStoryList.tsx';
import { PagedStoryGrid } from '../features/stories/PagedStoryGrid.tsx';
import { TrendingList } from '../features/stories/TrendingList.tsx';
import { UpcomingList } from '../features/stories/UpcomingList.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import { listHref, ONGOING, parseOngoing, parsePage, parseSort, SORTS } from './listParams.ts';
import { readingPlace } from './readingPlace.ts';
import styles from '../components/page.module.css';
import own from './HomePage.module.css';

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
      <GuardNotice />
      <ContinueReading />
      <HydrateLater>
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
      </HydrateLater>
      {/* Below the list on a phone: hydrated after it, each list in a task of its own. */}
      <aside className={styles.aside}>
        <HydrateLater>
          <TrendingList />
        </HydrateLater>
        <HydrateLater>
          <Upcoming />
        </HydrateLater>
        <HydrateLater>
          <Premium />
        </HydrateLater>
      </aside>
    </div>
  );
}

/**
 * Continue reading, for a logged-in reader only: fetched in the browser with the token, shown
 * only when there is something to continue. Visitors and the server render get nothing, so the
 * public page never moves.
 */
function ContinueReading() {
  const { t } = useI18n();
  const reader = useSession().status === 'reader';
  const { data } = useContinueReading(reader);
  const list = reader ? (data?.list ?? []) : [];
  if (list.length === 0) return null;
  return (
    <section className={own.continue} aria-labelledby="continue-heading">
      <h2 id="continue-heading" className={ui.sectionTitle}>
        {t('continue.title')}
      </h2>
      <ul className={own.row}>
        {list.map(({ story, progress }) => {
          const place = readingPlace(story.storyId, progress, story.numberOfparts);
          return (
            <li key={story.storyId} className={own.item}>
              <Cover storyId={story.storyId} alt="" width={48} className={own.cover} />
              <div className={own.body}>
                <Link to={place.href} className={own.link} lang={storyLang(story.language)}>
                  {story.title}
                </Link>
                <span className={own.part}>
                  {t('bookmarks.at', { n: place.part, total: place.total })}
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
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
