import { useId } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import {
  DEFAULT_STATS_PERIOD,
  detailsPath,
  formatCount,
  type AuthorStats,
  type StatsPeriod,
  type StoryStats,
} from '@kathamala/domain';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonBlock } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { StatsCharts } from '../features/statistics/StatsCharts.tsx';
import { StoryTable } from '../features/statistics/StoryTable.tsx';
import { SummaryFigures } from '../features/statistics/SummaryFigures.tsx';
import {
  formatDay,
  parsePeriod,
  parseStoryId,
  PERIODS,
  topStories,
} from '../features/statistics/model.ts';
import { useAuthorStats, useStatsSummary } from '../features/statistics/statsApi.ts';
import { storyLang } from '../features/stories/lang.ts';
import { useI18n, type MessageKey } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import fx from '../features/statistics/statistics.module.css';
import styles from './StatisticsPage.module.css';

const WRITE_PATH = '/publish/story/';

const PERIOD_KEYS: Record<StatsPeriod, MessageKey> = {
  '7': 'stats.period7',
  '30': 'stats.period30',
  '90': 'stats.period90',
  all: 'stats.periodAll',
};

/** /statistics/?period=&story=: the address of a period and (optionally) one story. */
const statsHref = (period: StatsPeriod, storyId: number | null): string => {
  const q = new URLSearchParams();
  if (period !== DEFAULT_STATS_PERIOD) q.set('period', period);
  if (storyId !== null) q.set('story', String(storyId));
  const search = q.toString();
  return `/statistics/${search ? `?${search}` : ''}`;
};

/**
 * /statistics/: authors only (SPEC.md 2, 6); everyone else is sent home. The summary's figures
 * first, then charts of reads, drop-off, top stories and ratings, then every story's figures.
 * The period and the chosen story live in the address, so a view can be shared and reloaded.
 */
export default function StatisticsPage() {
  const { t, lang } = useI18n();
  const session = useSession();
  const [params] = useSearchParams();
  useDocumentTitle(t('stats.title'));
  const isAuthor = session.status === 'reader' && session.author;
  const period = parsePeriod(params.get('period'));
  const storyParam = parseStoryId(params.get('story'));
  const summary = useStatsSummary(period, isAuthor);
  const stats = useAuthorStats(period, isAuthor);

  if (session.status === 'visitor' || (session.status === 'reader' && !session.author))
    return <Navigate to="/" replace />;

  const data = stats.data;
  const summaryFailed = summary.isError && !summary.data;
  const retryAll = () => {
    void summary.refetch();
    void stats.refetch();
  };
  const noStories = data !== undefined && data.stories.length === 0;
  const range =
    data &&
    (data.from === null
      ? t('stats.rangeAll', { to: formatDay(data.to, lang, true) })
      : t('stats.range', {
          from: formatDay(data.from, lang, true),
          to: formatDay(data.to, lang, true),
        }));

  return (
    <div className={styles.page}>
      <header className={styles.head}>
        <div className={styles.titles}>
          <h1 className={styles.heading}>{t('stats.title')}</h1>
          <p className={styles.lead}>{t('stats.lead')}</p>
        </div>
        {!noStories && (
          <nav aria-label={t('stats.period')} className={styles.periods}>
            <ul className={ui.chips}>
              {PERIODS.map((p) => (
                <li key={p}>
                  <Link
                    className={ui.chip}
                    to={statsHref(p, storyParam)}
                    aria-current={p === period ? 'page' : undefined}
                    preventScrollReset
                  >
                    {t(PERIOD_KEYS[p])}
                  </Link>
                </li>
              ))}
            </ul>
            {range && <p className={styles.range}>{range}</p>}
          </nav>
        )}
      </header>

      {noStories ? (
        <div className={styles.empty}>
          <p>{t('stats.empty')}</p>
          <Link className={ui.button} to={WRITE_PATH}>
            {t('stats.write')}
          </Link>
        </div>
      ) : (
        <>
          <section aria-labelledby="stats-summary" className={styles.section}>
            <div className={fx.sectionHead}>
              <h2 id="stats-summary" className={fx.sectionTitle}>
                {t('stats.summary')}
              </h2>
              {summary.data?.previous && (
                <p className={fx.sectionNote}>
                  {t('stats.compared', { n: period, count: Number(period) })}
                </p>
              )}
            </div>
            {summaryFailed ? (
              <ErrorNotice error={summary.error} onRetry={retryAll} />
            ) : summary.data && session.status === 'reader' ? (
              <div aria-busy={summary.isPlaceholderData || undefined}>
                <SummaryFigures summary={summary.data} />
              </div>
            ) : (
              <FiguresSkeleton label={t('common.loading')} />
            )}
          </section>

          {stats.isError && !data ? (
            // One failure notice is enough when both calls failed: its Try again redoes both.
            !summaryFailed && <ErrorNotice error={stats.error} onRetry={retryAll} />
          ) : data && session.status === 'reader' ? (
            <div className={styles.body} aria-busy={stats.isPlaceholderData || undefined}>
              <StatsBody stats={data} period={period} storyId={storyParam} />
            </div>
          ) : (
            <ChartsSkeleton />
          )}
          <p className={styles.footnote}>{t('stats.howCounted')}</p>
        </>
      )}
    </div>
  );
}

function StatsBody(props: { stats: AuthorStats; period: StatsPeriod; storyId: number | null }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const pickerId = useId();
  const { stats, period } = props;
  const chosen = stats.stories.find((s) => s.storyId === props.storyId) ?? null;
  const focus: StoryStats | null = chosen ?? topStories(stats.stories)[0] ?? null;
  const neverRead = stats.stories.every((s) => s.readsTotal === 0 && s.reads === 0);

  const picker = (
    <div className={fx.picker}>
      <label htmlFor={pickerId} className={fx.pickerLabel}>
        {t('stats.storyChoice')}
      </label>
      <select
        id={pickerId}
        className={fx.select}
        value={chosen?.storyId ?? ''}
        onChange={(e) =>
          // Replace, not push: arrow keys on the list change it once per step.
          void navigate(statsHref(period, parseStoryId(e.target.value)), {
            preventScrollReset: true,
            replace: true,
          })
        }
      >
        <option value="">{t('stats.allStories')}</option>
        {stats.stories.map((s) => (
          <option key={s.storyId} value={s.storyId}>
            {s.title}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <>
      {neverRead && <InfoNotice>{t('stats.noReads')}</InfoNotice>}
      {chosen && (
        <div className={fx.chosen}>
          <div>
            <h2 className={fx.chosenTitle} lang={storyLang(chosen.language)}>
              {chosen.title}
            </h2>
            <p className={fx.chosenFigures}>
              {t('stats.chosenFigures', {
                count: chosen.reads,
                reads: formatCount(chosen.reads),
                total: formatCount(chosen.readsTotal),
              })}
            </p>
          </div>
          <div className={fx.chosenLinks}>
            <Link to={detailsPath(chosen.storyId)}>{t('stats.openStory')}</Link>
            <Link to={`${WRITE_PATH}?story=${chosen.storyId}`}>{t('stats.edit')}</Link>
            <Link to={statsHref(period, null)} preventScrollReset>
              {t('stats.allStoriesBack')}
            </Link>
          </div>
        </div>
      )}
      <section aria-label={t('stats.charts')}>
        <StatsCharts stats={stats} chosen={chosen} focus={focus} picker={picker} />
      </section>
      <StoryTable
        stories={stats.stories}
        chosenId={chosen?.storyId ?? null}
        hrefFor={(id) => statsHref(period, id)}
      />
    </>
  );
}

function FiguresSkeleton({ label }: { label: string }) {
  return (
    <div className={fx.figures} role="status" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: 8 }, (_, i) => (
        <SkeletonBlock key={i} className={fx.figureSkeleton} />
      ))}
    </div>
  );
}

function ChartsSkeleton() {
  return (
    <div className={fx.charts} aria-hidden="true">
      <SkeletonBlock className={`${fx.wide} ${fx.chartSkeleton}`} />
      <SkeletonBlock className={fx.chartSkeleton} />
      <SkeletonBlock className={fx.chartSkeleton} />
    </div>
  );
}
