import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  apiPaths,
  ENGAGEMENT,
  formatCount,
  type AuthorRank,
  type AuthorRankings,
  type LeaderboardBy,
  type LeaderboardPeriod,
} from '@kathamala/domain';
import { apiRequest } from '../api/client.ts';
import { useFollowing } from '../api/social.ts';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { textLang } from '../features/stories/lang.ts';
import { TrendingList } from '../features/stories/TrendingList.tsx';
import { useI18n, type MessageKey, type PluralKey, type Translate } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { listHref } from './listParams.ts';
import ui from '../components/ui.module.css';
import styles from '../components/page.module.css';
import own from './LeaderboardPage.module.css';

const BYS: readonly LeaderboardBy[] = ['reads', 'rating'];
const PERIODS: readonly LeaderboardPeriod[] = ['week', 'month', 'all'];
const DEFAULTS = { by: 'reads', period: 'week' };

const BY_LABEL: Record<LeaderboardBy, MessageKey> = {
  reads: 'leaderboard.byReads',
  rating: 'leaderboard.byRating',
};
const HEADING: Record<LeaderboardBy, MessageKey> = {
  reads: 'leaderboard.headingReads',
  rating: 'leaderboard.headingRating',
};
const EMPTY: Record<LeaderboardBy, MessageKey> = {
  reads: 'leaderboard.emptyReads',
  rating: 'leaderboard.emptyRating',
};
/** What "before" means for each board's change: the period just before, or a week ago. */
const BEFORE: Record<LeaderboardPeriod, MessageKey> = {
  week: 'leaderboard.beforeWeek',
  month: 'leaderboard.beforeMonth',
  all: 'leaderboard.beforeAll',
};

const parseBy = (raw: string | null): LeaderboardBy =>
  BYS.find((b) => b === raw) ?? (DEFAULTS.by as LeaderboardBy);
const parsePeriod = (raw: string | null): LeaderboardPeriod =>
  PERIODS.find((p) => p === raw) ?? (DEFAULTS.period as LeaderboardPeriod);

/** The board the address names; the server prefetched the same path, so the first paint has it. */
const useRankings = (by: LeaderboardBy, period: LeaderboardPeriod) => {
  const path = apiPaths.statsAuthors({ by, period });
  return useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => apiRequest<AuthorRankings>(path, { signal }),
    placeholderData: keepPreviousData,
  });
};

/**
 * /leaderboard/: the author rankings by reads or by rating over a week, a month or all time,
 * with each author's move against the period before. The choice lives in the address (links,
 * so it works before scripts load and a shared link shows the same board). The authors the
 * reader follows are marked in the browser; the page itself is the same for everyone.
 */
export default function LeaderboardPage() {
  const { t } = useI18n();
  useDocumentTitle(t('leaderboard.title'));
  const [params] = useSearchParams();
  const by = parseBy(params.get('by'));
  const period = parsePeriod(params.get('period'));
  const rankings = useRankings(by, period);
  const reader = useSession().status === 'reader';
  const following = useFollowing(reader);
  const followed = new Set(reader ? (following.data?.list ?? []).map((f) => f.userId) : []);
  const href = (change: Partial<{ by: LeaderboardBy; period: LeaderboardPeriod }>) =>
    listHref('/leaderboard/', { by, period, ...change }, DEFAULTS);
  const board = rankings.data;

  return (
    <div className={styles.page}>
      <section className={styles.stories} aria-labelledby="leaderboard-heading">
        <div className={styles.listHead}>
          <h1 id="leaderboard-heading" className={styles.heading}>
            {t('leaderboard.title')}
          </h1>
          <p className={styles.lead}>{t('leaderboard.lead')}</p>
          <div className={styles.controls}>
            <Choice
              label={t('leaderboard.by')}
              items={BYS.map((b) => ({ key: b, text: t(BY_LABEL[b]), to: href({ by: b }) }))}
              current={by}
            />
            <Choice
              label={t('leaderboard.period')}
              items={PERIODS.map((p) => ({
                key: p,
                text: t(`leaderboard.${p}`),
                to: href({ period: p }),
              }))}
              current={period}
            />
          </div>
        </div>
        <h2 id="board-heading" className={ui.sectionTitle}>
          {/* One child: the title bar lays its children out side by side. */}
          <span>
            {t(HEADING[by])}
            <span className={own.period}>{` · ${t(`leaderboard.${period}`)}`}</span>
          </span>
        </h2>
        {board ? (
          board.authors.length === 0 ? (
            <InfoNotice>
              <p>{t(EMPTY[by])}</p>
              {period !== 'all' && (
                <p>
                  <Link to={href({ period: 'all' })}>{t('leaderboard.seeAllTime')}</Link>
                </p>
              )}
            </InfoNotice>
          ) : (
            <>
              <ol
                className={own.board}
                aria-labelledby="board-heading"
                aria-busy={rankings.isPlaceholderData || undefined}
                data-by={board.by}
                data-period={board.period}
              >
                {board.authors.map((author) => (
                  <Row
                    key={author.authorId}
                    author={author}
                    by={board.by}
                    before={t(BEFORE[board.period])}
                    followed={author.userId !== null && followed.has(author.userId)}
                  />
                ))}
              </ol>
              {by === 'rating' && (
                <p className={own.note}>
                  {t('leaderboard.ratingRule', { n: ENGAGEMENT.ratingPriorVotes })}
                </p>
              )}
            </>
          )
        ) : rankings.error ? (
          <ErrorNotice error={rankings.error} onRetry={() => void rankings.refetch()} />
        ) : (
          <p className={own.note} aria-busy="true">
            …
          </p>
        )}
      </section>
      <aside className={styles.aside}>
        <TrendingList />
      </aside>
    </div>
  );
}

/** A row of links that acts as a switch: the current one is marked for eyes and screen readers. */
function Choice<K extends string>(props: {
  label: string;
  items: { key: K; text: string; to: string }[];
  current: K;
}) {
  return (
    <nav aria-label={props.label} className={styles.controlRow}>
      <span className={styles.controlLabel} aria-hidden="true">
        {props.label}
      </span>
      <ul className={ui.chips}>
        {props.items.map((item) => (
          <li key={item.key}>
            <Link
              className={ui.chip}
              to={item.to}
              replace
              preventScrollReset
              aria-current={item.key === props.current ? 'page' : undefined}
            >
              {item.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Row(props: { author: AuthorRank; by: LeaderboardBy; before: string; followed: boolean }) {
  const { t } = useI18n();
  const { author, by, followed } = props;
  const count = (n: number, key: PluralKey) => t(key, { count: n, n: formatCount(n) });
  const reads = count(author.reads, 'leaderboard.reads');
  const rating =
    author.rating === null ? null : (
      <>
        <span aria-hidden="true">{`★ ${author.rating.toFixed(2)}`}</span>
        <span className="visually-hidden">
          {t('leaderboard.ratingAverage', { rating: author.rating.toFixed(2) })}
        </span>
      </>
    );
  const ratings = count(author.ratingCount, 'leaderboard.ratings');
  return (
    <li className={own.row} data-followed={followed || undefined}>
      <span className={own.position} data-top={author.position <= 3 || undefined}>
        <span aria-hidden="true">{author.position}</span>
        <span className="visually-hidden">{t('leaderboard.position', { n: author.position })}</span>
      </span>
      <div className={own.who}>
        <Link
          to={apiPaths.authorPage(author.authorId)}
          className={own.name}
          lang={textLang(author.name)}
        >
          {author.name}
        </Link>
        {followed && <span className={ui.badge}>{t('leaderboard.following')}</span>}
        <span className={own.meta}>
          {count(author.stories, 'leaderboard.stories')}
          {by === 'reads' && author.rating !== null && (
            <>
              {' · '}
              {rating}
            </>
          )}
          {by === 'rating' && ` · ${reads}`}
        </span>
      </div>
      <div className={own.figure}>
        {by === 'reads' ? (
          <strong>{reads}</strong>
        ) : (
          <>
            <strong>{rating ?? t('leaderboard.noRating')}</strong>
            <span className={own.meta}>{ratings}</span>
          </>
        )}
      </div>
      <Change change={author.change} before={props.before} t={t} />
    </li>
  );
}

/** The move since the period before: an arrow and the number, and the same as a sentence. */
function Change(props: { change: number | null; before: string; t: Translate }) {
  const { change, before, t } = props;
  const [mark, kind, text] =
    change === null
      ? [t('leaderboard.new'), own.fresh, t('leaderboard.newLong', { before })]
      : change > 0
        ? [`▲ ${change}`, own.up, t('leaderboard.up', { n: change, before })]
        : change < 0
          ? [`▼ ${-change}`, own.down, t('leaderboard.down', { n: -change, before })]
          : ['–', own.same, t('leaderboard.same', { before })];
  return (
    <span className={`${own.change} ${kind}`} title={text}>
      <span aria-hidden="true">{mark}</span>
      <span className="visually-hidden">{text}</span>
    </span>
  );
}
