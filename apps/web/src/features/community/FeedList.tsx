import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { detailsPath, type Post } from '@kathamala/domain';
import ui from '../../components/ui.module.css';
import { ErrorNotice, InfoNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { Cover } from '../../components/Cover.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.tsx';
import { feedPath, useFeedPage, useLiked } from './api.ts';
import { communityPages, type FeedTab } from './paths.ts';
import { PostCard, type Viewer } from './PostCard.tsx';
import { feedEntries, type FeedEntry } from './rules.ts';
import styles from './community.module.css';

const EMPTY: Record<FeedTab, MessageKey> = {
  everyone: 'community.empty',
  following: 'community.emptyFollowing',
  pinned: 'community.emptyPinned',
};

/** Where a list of posts comes from: its API path and its page address, by page number. */
export interface FeedSource {
  path: (page: number) => string;
  href: (page: number) => string;
  empty: MessageKey;
}

/** A tab of /community as a source. */
export const tabSource = (tab: FeedTab): FeedSource => ({
  path: (page) => feedPath(tab, page),
  href: (page) => communityPages.feed(tab, page),
  empty: EMPTY[tab],
});

/**
 * A feed tab from the page the address names: that page is rendered on the server with plain
 * "Newer posts" and "Older posts" links (`?page=N`), so it reads without JavaScript; in the
 * browser, reaching the end loads the next page below (infinite scroll), and the link stays
 * as the way on when scrolling does not happen (a keyboard, a screen reader).
 */
export function FeedList(props: {
  source: FeedSource;
  page: number;
  viewer: Viewer;
  posted?: Post[];
}) {
  const { t } = useI18n();
  const [pages, setPages] = useState([props.page]);
  const last = pages[pages.length - 1]!;
  const lastQuery = useFeedPage(props.source.path(last));
  const hasNext = lastQuery.data?.hasNext ?? false;
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNext || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting))
          setPages((list) => (list.includes(last + 1) ? list : [...list, last + 1]));
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNext, last]);

  return (
    <div className={styles.feed}>
      {props.page > 1 && (
        <Link className={ui.buttonSecondary} to={props.source.href(props.page - 1)}>
          {t('community.newer')}
        </Link>
      )}
      {(props.posted ?? []).map((post) => (
        <PostCard key={`new-${post.postId}`} post={post} viewer={props.viewer} liked={false} />
      ))}
      {pages.map((page) => (
        <FeedPageBlock
          key={page}
          path={props.source.path(page)}
          viewer={props.viewer}
          first={page === props.page}
        />
      ))}
      <div ref={sentinel} />
      {lastQuery.isFetching && pages.length > 1 && (
        <p className={styles.muted} role="status">
          {t('community.loadingMore')}
        </p>
      )}
      {hasNext ? (
        <Link
          className={ui.buttonSecondary}
          to={props.source.href(last + 1)}
          rel="next"
          onClick={(e) => {
            // With JavaScript the next page comes below instead of replacing this one.
            e.preventDefault();
            setPages((list) => (list.includes(last + 1) ? list : [...list, last + 1]));
          }}
        >
          {t('community.older')}
        </Link>
      ) : (
        lastQuery.data &&
        (lastQuery.data.list.length > 0 || pages.length > 1) && (
          <p className={styles.muted}>{t('community.end')}</p>
        )
      )}
      {/* Which tab is empty is said once, on its first page. */}
      {pages.length === 1 && lastQuery.data?.list.length === 0 && props.page === 1 && (
        <InfoNotice>
          <p>{t(props.source.empty)}</p>
        </InfoNotice>
      )}
    </div>
  );
}

function FeedPageBlock(props: { path: string; viewer: Viewer; first: boolean }) {
  const { t } = useI18n();
  const query = useFeedPage(props.path);
  const entries = query.data ? feedEntries(query.data) : [];
  const ids = entries.flatMap((e) => (e.kind === 'post' ? [e.post.postId] : []));
  const reader = props.viewer !== 'unknown' && props.viewer !== null;
  const liked = new Set(useLiked(ids, reader).data?.liked ?? []);
  if (!query.data) {
    if (query.isError)
      return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
    return <SkeletonLines lines={props.first ? 6 : 3} label={t('common.loading')} />;
  }
  return (
    <>
      {entries.map((entry) => (
        <Entry
          key={entryKey(entry)}
          entry={entry}
          viewer={props.viewer}
          liked={entry.kind === 'post' && liked.has(entry.post.postId)}
        />
      ))}
    </>
  );
}

const entryKey = (e: FeedEntry) =>
  e.kind === 'post' ? `p${e.post.postId}` : `e${e.episode.storyId}-${e.episode.partNumber}`;

function Entry(props: { entry: FeedEntry; viewer: Viewer; liked: boolean }) {
  const { t } = useI18n();
  const { entry } = props;
  if (entry.kind === 'post')
    return <PostCard post={entry.post} viewer={props.viewer} liked={props.liked} />;
  const ep = entry.episode;
  return (
    <article className={styles.episode}>
      <Link to={detailsPath(ep.storyId, ep.partNumber)} className={styles.sharedStory}>
        <Cover storyId={ep.storyId} alt="" width={64} />
        <span>
          <span className={styles.sharedLabel}>
            {`${t('notifications.newEpisode')} · ${ep.authorName}`}
          </span>
          <span className={styles.sharedTitle} lang={ep.lang === 'sinhala' ? 'si' : 'en'}>
            {ep.title}
          </span>
          <span className={styles.muted}>{ep.episodeTitle}</span>
        </span>
      </Link>
    </article>
  );
}
