import type { ReactNode } from 'react';
import type { AuthorStats, StoryStats } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { ChartFigure } from './ChartFigure.tsx';
import {
  formatDay,
  peakDay,
  ratingDistribution,
  reachPercent,
  readsSeries,
  shortTitle,
  sum,
  topStories,
} from './model.ts';
import styles from './statistics.module.css';

/** Exact numbers for tables and spoken summaries (figures use the 1.23K form). */
const exact = (n: number): string => n.toLocaleString('en-US');
/** At most this many stories in the top stories chart (the stories table lists them all). */
const TOP_SHOWN = 10;

/**
 * The page's four charts: reads over time (all stories, or the chosen one), how far readers
 * get through the focus story's parts, top stories by reads, and ratings by stars.
 */
export function StatsCharts(props: {
  stats: AuthorStats;
  chosen: StoryStats | null;
  focus: StoryStats | null;
  picker: ReactNode;
}) {
  const { stats, chosen, focus } = props;
  return (
    <div className={styles.charts}>
      <div className={styles.wide}>
        <ReadsChart stats={stats} chosen={chosen} picker={props.picker} />
      </div>
      {focus && <DropOffChart story={focus} chosen={chosen !== null} />}
      <RatingsChart stories={chosen ? [chosen] : stats.stories} />
      {!chosen && stats.stories.length > 1 && (
        <div className={styles.wide}>
          <TopStoriesChart stories={stats.stories} />
        </div>
      )}
    </div>
  );
}

/** A message whose `{name}` placeholder is an element (a title marked with its language). */
function withNode(text: string, name: string, node: ReactNode) {
  const [before, after = ''] = text.split(`{${name}}`);
  return (
    <>
      {before}
      {node}
      {after}
    </>
  );
}

function ReadsChart(props: { stats: AuthorStats; chosen: StoryStats | null; picker: ReactNode }) {
  const { t, lang } = useI18n();
  const { stats, chosen } = props;
  const { points, weekly } = readsSeries(
    stats.from,
    stats.to,
    chosen ? chosen.readsByDay : stats.readsByDay,
  );
  const total = sum(points.map((p) => p.reads));
  const peak = peakDay(points);
  const from = formatDay(points[0]?.day ?? stats.to, lang, true);
  const to = formatDay(stats.to, lang, true);
  const summary = peak
    ? t(weekly ? 'stats.readsSummaryWeeks' : 'stats.readsSummary', {
        from,
        to,
        total: exact(total),
        peak: formatDay(peak.day, lang, true),
        top: exact(peak.reads),
      })
    : t('stats.readsSummaryNone', { from, to });
  const subtitle = chosen
    ? t(weekly ? 'stats.readsSubStoryWeeks' : 'stats.readsSubStory')
    : t(weekly ? 'stats.readsSubAllWeeks' : 'stats.readsSubAll');
  return (
    <ChartFigure
      name="reads"
      title={t('stats.readsChart')}
      subtitle={subtitle}
      summary={summary}
      tall
      actions={props.picker}
      empty={total === 0 ? t('stats.readsEmpty') : null}
      spec={{
        kind: 'line',
        labels: points.map((p) => formatDay(p.day, lang)),
        tooltipTitles: points.map((p) => formatDay(p.day, lang, true)),
        values: points.map((p) => p.reads),
        valueLabel: t('stats.colReads'),
      }}
      table={{
        columns: [t(weekly ? 'stats.colWeek' : 'stats.colDay'), t('stats.colReads')],
        rows: points
          .filter((p) => p.reads > 0)
          .map((p) => [formatDay(p.day, lang, true), exact(p.reads)]),
        note: weekly ? undefined : t('stats.daysNote'),
      }}
    />
  );
}

function DropOffChart({ story, chosen }: { story: StoryStats; chosen: boolean }) {
  const { t } = useI18n();
  const episodes = [...story.episodes].sort((a, b) => a.partNumber - b.partNumber);
  const first = episodes[0]?.readers ?? 0;
  const last = episodes.at(-1);
  const title = <cite lang={storyLang(story.language)}>{story.title}</cite>;
  const subtitle = (
    <>
      {withNode(t('stats.dropSub'), 'title', title)}
      {!chosen && <span className={styles.hint}>{` ${t('stats.dropHint')}`}</span>}
    </>
  );
  return (
    <ChartFigure
      name="dropoff"
      title={t('stats.dropChart')}
      subtitle={subtitle}
      summary={t('stats.dropSummary', {
        first: exact(first),
        last: exact(last?.readers ?? 0),
        n: last?.partNumber ?? 1,
        percent: reachPercent(last?.readers ?? 0, first) ?? 0,
      })}
      empty={first === 0 && sum(episodes.map((e) => e.readers)) === 0 ? t('stats.dropEmpty') : null}
      spec={{
        kind: 'bar',
        labels: episodes.map((e) => t('stats.part', { n: e.partNumber })),
        tooltipTitles: episodes.map((e) => `${t('stats.part', { n: e.partNumber })}: ${e.title}`),
        values: episodes.map((e) => e.readers),
        valueLabel: t('stats.colReaders'),
        tooltipExtra: episodes.map((e) => {
          const p = reachPercent(e.readers, first);
          return p === null ? '' : t('stats.ofFirst', { percent: p });
        }),
      }}
      table={{
        columns: [
          t('stats.colPart'),
          t('stats.colReaders'),
          t('stats.colReach'),
          t('stats.colReads'),
          t('stats.colComments'),
        ],
        rows: episodes.map((e) => {
          const p = reachPercent(e.readers, first);
          return [
            <>
              {`${e.partNumber}. `}
              <span lang={storyLang(story.language)} className={styles.partTitle}>
                {e.title}
              </span>
            </>,
            exact(e.readers),
            p === null ? '–' : `${p}%`,
            exact(e.reads),
            exact(e.comments),
          ];
        }),
      }}
    />
  );
}

function TopStoriesChart({ stories }: { stories: StoryStats[] }) {
  const { t } = useI18n();
  const top = topStories(stories).slice(0, TOP_SHOWN);
  const leader = top[0];
  return (
    <ChartFigure
      name="top"
      title={t('stats.topChart')}
      subtitle={t('stats.topSub')}
      summary={t('stats.topSummary', {
        title: leader?.title ?? '',
        reads: exact(leader?.reads ?? 0),
      })}
      empty={!leader || leader.reads === 0 ? t('stats.readsEmpty') : null}
      rows={top.length}
      spec={{
        kind: 'bar',
        horizontal: true,
        labels: top.map((s) => shortTitle(s.title)),
        tooltipTitles: top.map((s) => s.title),
        values: top.map((s) => s.reads),
        valueLabel: t('stats.colReads'),
      }}
      table={{
        columns: [t('stats.colStory'), t('stats.colReads'), t('stats.colAllTime')],
        rows: top.map((s) => [
          <span lang={storyLang(s.language)}>{s.title}</span>,
          exact(s.reads),
          exact(s.readsTotal),
        ]),
      }}
    />
  );
}

function RatingsChart({ stories }: { stories: StoryStats[] }) {
  const { t } = useI18n();
  const { values, count, average } = ratingDistribution(stories);
  const avg = average === null ? '' : average.toFixed(1);
  const most = values.reduce((best, v) => (v.count > best.count ? v : best), values[0]!);
  // The bars are the half steps 0.5, 1, ... 5 in order: the mean sits at (mean * 2 - 1).
  const firstStep = values[0]?.rating ?? 0.5;
  return (
    <ChartFigure
      name="ratings"
      title={t('stats.ratingsChart')}
      subtitle={average === null ? undefined : t('stats.ratingsSub', { avg, n: exact(count) })}
      summary={t('stats.ratingsSummary', { count, n: exact(count), avg, top: most.rating })}
      empty={count === 0 ? t('stats.ratingsEmpty') : null}
      spec={{
        kind: 'bar',
        labels: values.map((v) => t('stats.stars', { n: v.rating })),
        values: values.map((v) => v.count),
        valueLabel: t('stats.colRatings'),
        marker:
          average === null
            ? undefined
            : { at: (average - firstStep) * 2, label: t('stats.average', { avg }) },
      }}
      table={{
        columns: [t('stats.colStars'), t('stats.colRatings')],
        rows: [...values].reverse().map((v) => [t('stats.stars', { n: v.rating }), exact(v.count)]),
      }}
    />
  );
}
