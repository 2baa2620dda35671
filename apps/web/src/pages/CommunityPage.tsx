import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { parsePage, type Post } from '@kathamala/domain';
import { useFollowing } from '../api/social.ts';
import ui from '../components/ui.module.css';
import { InfoNotice } from '../components/Notice.tsx';
import { authHref } from '../components/MainNav.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { canReview, useTimeline } from '../features/community/api.ts';
import { Composer } from '../features/community/Composer.tsx';
import { FeedList, tabSource } from '../features/community/FeedList.tsx';
import { PostCard, type Viewer } from '../features/community/PostCard.tsx';
import { communityPages, FEED_TABS, parseTab, type FeedTab } from '../features/community/paths.ts';
import { useViewer } from '../features/community/useViewer.ts';
import { useI18n, type MessageKey } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import styles from '../features/community/community.module.css';

const TAB_LABEL: Record<FeedTab, MessageKey> = {
  everyone: 'community.tabEveryone',
  following: 'community.tabFollowing',
  pinned: 'community.tabPinned',
};

/**
 * /community: the feed (Everyone, Following, Pinned) with a composer for readers; visitors read
 * the public tabs and are asked to log in where they would act. `?tab` and `?page` name what is
 * shown, so every page of every tab is an address the server renders.
 */
export default function CommunityPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const tab = parseTab(params.get('tab'));
  const page = parsePage(params.get('page'));
  const session = useSession();
  const { viewer, me } = useViewer();
  const [posted, setPosted] = useState<Post[]>([]);
  useDocumentTitle(t('community.title'));

  return (
    <div className={styles.page}>
      <header className={styles.pageHead}>
        <h1 className={styles.heading}>{t('community.title')}</h1>
        <p className={styles.lead}>{t('community.lead')}</p>
        {me && canReview(me.role) && (
          <p className={styles.editorLinks}>
            <Link to={communityPages.reviews()}>{t('reviews.title')}</Link>
            {me.role === 'admin' && <Link to={communityPages.admin()}>{t('admin.title')}</Link>}
          </p>
        )}
      </header>

      <nav aria-label={t('community.tabs')} className={styles.tabs}>
        {FEED_TABS.map((name) => (
          <Link
            key={name}
            to={communityPages.feed(name)}
            className={ui.chip}
            aria-current={name === tab ? 'page' : undefined}
          >
            {t(TAB_LABEL[name])}
          </Link>
        ))}
      </nav>

      {session.status !== 'reader' && (
        <div className={session.status === 'unknown' ? 'visitor-only' : undefined}>
          <LoginPrompt
            text={t(tab === 'following' ? 'community.needLoginFollowing' : 'community.needLogin')}
          />
        </div>
      )}
      {viewer !== null && viewer !== 'unknown' && tab !== 'pinned' && (
        <>
          <ComposerFor viewer={viewer} onPosted={(post) => setPosted((l) => [post, ...l])} />
          <OwnHeldPosts viewer={viewer} hide={posted.map((p) => p.postId)} />
        </>
      )}
      {tab === 'following' && session.status !== 'reader' ? null : (
        <FeedList
          key={`${tab}-${page}`}
          source={tabSource(tab)}
          page={page}
          viewer={viewer}
          posted={tab === 'pinned' ? [] : posted}
        />
      )}
    </div>
  );
}

function LoginPrompt({ text }: { text: string }) {
  const { t } = useI18n();
  return (
    <InfoNotice>
      <p>{text}</p>
      <p className={styles.row}>
        <Link className={ui.button} to={authHref('/login', '/community')}>
          {t('nav.login')}
        </Link>
        <Link className={ui.buttonSecondary} to={authHref('/signup', '/community')}>
          {t('nav.join')}
        </Link>
      </p>
    </InfoNotice>
  );
}

function ComposerFor(props: {
  viewer: { userId: number; role: string };
  onPosted: (post: Post) => void;
}) {
  const following = useFollowing(true);
  const people = () =>
    (following.data?.list ?? []).map((f) => ({ userId: f.userId, username: f.username }));
  return <Composer viewerId={props.viewer.userId} people={people} onPosted={props.onPosted} />;
}

/**
 * The viewer's own posts that others do not see: waiting for review, or not published with the
 * editor's reason. They come from the viewer's own timeline, which shows them to its owner.
 */
function OwnHeldPosts(props: { viewer: { userId: number; role: string }; hide: number[] }) {
  const timeline = useTimeline(props.viewer.userId, 1);
  const held = (timeline.data?.list ?? []).filter(
    (p) => p.status !== 'approved' && !props.hide.includes(p.postId),
  );
  if (held.length === 0) return null;
  return (
    <div className={styles.feed}>
      {held.map((post) => (
        <PostCard key={post.postId} post={post} viewer={props.viewer as Viewer} liked={false} />
      ))}
    </div>
  );
}
