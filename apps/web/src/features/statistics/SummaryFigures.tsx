import { formatCount, type Summary } from '@kathamala/domain';
import { useI18n, type MessageKey } from '../../i18n/index.tsx';
import { FIGURES, figureChange, type FigureKey } from './model.ts';
import styles from './statistics.module.css';

const LABELS: Record<FigureKey, MessageKey> = {
  reads: 'stats.figReads',
  readers: 'stats.figReaders',
  ratings: 'stats.figRatings',
  comments: 'stats.figComments',
  bookmarks: 'stats.figBookmarks',
  followersGained: 'stats.figFollowersGained',
  alertsGained: 'stats.figAlertsGained',
  membersGained: 'stats.figMembersGained',
};

/**
 * The summary as figures, each with its change against the period before: an arrow, a sign
 * and a percentage (so colour is never the only signal), said in words to screen readers.
 */
export function SummaryFigures({ summary }: { summary: Summary }) {
  const { t } = useI18n();
  const note = (key: FigureKey): string | null => {
    if (key === 'ratings' && summary.current.ratingAverage !== null)
      return t('stats.noteAverage', { avg: summary.current.ratingAverage.toFixed(1) });
    if (key === 'followersGained')
      return t('stats.noteFollowers', {
        count: summary.followers,
        n: formatCount(summary.followers),
      });
    if (key === 'alertsGained')
      return t('stats.noteAlerts', {
        count: summary.alertSubscribers,
        n: formatCount(summary.alertSubscribers),
      });
    return null;
  };
  return (
    <dl className={styles.figures}>
      {FIGURES.map((key) => {
        const extra = note(key);
        return (
          <div key={key} className={styles.figure} data-figure={key}>
            <dt className={styles.figureLabel}>{t(LABELS[key])}</dt>
            <dd className={styles.figureValue}>{formatCount(summary.current[key])}</dd>
            {summary.previous && <Change summary={summary} figure={key} />}
            {extra && <dd className={styles.figureNote}>{extra}</dd>}
          </div>
        );
      })}
    </dl>
  );
}

const CHANGE_CLASS = { up: styles.changeUp, down: styles.changeDown, same: styles.changeSame };

function Change({ summary, figure }: { summary: Summary; figure: FigureKey }) {
  const { t } = useI18n();
  const change = figureChange(summary, figure);
  const before = summary.previous?.[figure] ?? 0;
  if (change === null) {
    // Nothing before to compare with: a first read is news, zero after zero says nothing.
    if (before !== 0 || summary.current[figure] === 0) return null;
    return (
      <dd className={`${styles.change} ${styles.changeNew}`}>
        <span aria-hidden="true">★ </span>
        {t('stats.changeNew')}
        <span className="visually-hidden">{` (${t('stats.changeNewLong')})`}</span>
      </dd>
    );
  }
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'same';
  const arrow = { up: '▲', down: '▼', same: '=' }[direction];
  const words =
    direction === 'same'
      ? t('stats.changeSame')
      : t(direction === 'up' ? 'stats.changeUp' : 'stats.changeDown', { n: Math.abs(change) });
  return (
    <dd className={`${styles.change} ${CHANGE_CLASS[direction]}`}>
      <span aria-hidden="true">{`${arrow} ${change > 0 ? '+' : ''}${change}%`}</span>
      <span className="visually-hidden">{words}</span>
    </dd>
  );
}
