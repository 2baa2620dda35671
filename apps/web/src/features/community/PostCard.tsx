import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { detailsPath, type Post, type SharedPost } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { Cover } from '../../components/Cover.tsx';
import { formatDayMonth } from '../../i18n/dates.ts';
import { useI18n } from '../../i18n/index.tsx';
import { ReportDialog } from '../comments/ReportDialog.tsx';
import { authHref } from '../../components/MainNav.tsx';
import { deletePost, flagPost, refreshCommunity, setLike, togglePin } from './api.ts';
import { Avatar, RoleBadge } from './Avatar.tsx';
import { communityPages } from './paths.ts';
import { PostComments } from './PostComments.tsx';
import { PostText } from './PostText.tsx';
import { likeOptimistically, type LikeState } from './rules.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { ShareDialog } from './ShareDialog.tsx';
import styles from './community.module.css';
import { Feedback } from './Feedback.tsx';

/** Who is looking: unknown while the page hydrates, null for a visitor. */
export type Viewer = { userId: number; role: string } | null | 'unknown';

/**
 * One post in a feed, a timeline or on its own page: the writer, its state for the writer
 * (waiting for review, or why it was not published), the text as text, its images, what it
 * shares, and the actions the viewer may take. Visitors see where to log in instead.
 */
export function PostCard(props: {
  post: Post;
  viewer: Viewer;
  /** Whether the viewer likes it (the shared answers always say false). */
  liked: boolean;
  /** On the post's own page the comments are open and the heading is the page's. */
  standalone?: boolean;
  /** After the post is deleted or removed. */
  onGone?: () => void;
}) {
  const { t, lang } = useI18n();
  const client = useQueryClient();
  const { post } = props;
  const viewer = props.viewer;
  const known = viewer !== 'unknown';
  const mine = known && viewer !== null && viewer.userId === post.author.userId;
  const editor = known && viewer !== null && (viewer.role === 'editor' || viewer.role === 'admin');
  const [like, setLikeState] = useState<LikeState | null>(null);
  const shown = like ?? { liked: props.liked, likes: post.likes };
  const [commentsOpen, setCommentsOpen] = useState(!!props.standalone);
  const [comments, setComments] = useState(post.comments);
  const [dialog, setDialog] = useState<'share' | 'flag' | 'remove' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pinned, setPinned] = useState(post.pinned);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const failed = (e: unknown) =>
    setError(isApiError(e) && e.message ? e.message : t('common.error'));

  const onLike = () => {
    setError('');
    // Shown at once; rolled back to what the server still holds when it refuses.
    void likeOptimistically(shown, (liked) => setLike(post.postId, liked), setLikeState).then(
      (e) => e && failed(e),
    );
  };

  const onDelete = () => {
    deletePost(post.postId).then(() => {
      void refreshCommunity(client);
      props.onGone?.();
    }, failed);
  };

  const onPin = () => {
    togglePin(post.postId).then((answer) => {
      setPinned(answer.pinned);
      void refreshCommunity(client);
    }, failed);
  };

  const headingId = `post-${post.postId}-by`;
  const Heading = props.standalone ? 'h1' : 'h2';
  const visible = post.status === 'approved';

  return (
    <article className={styles.post} aria-labelledby={headingId} data-post-id={post.postId}>
      <header className={styles.postHead}>
        {/* The picture repeats the name's link: one stop for the keyboard, none for a reader. */}
        <Link
          to={communityPages.profile(post.author.userId)}
          className={styles.avatarLink}
          tabIndex={-1}
          aria-hidden="true"
        >
          <Avatar name={post.author.username} avatar={post.author.avatar} />
        </Link>
        <div className={styles.byline}>
          <Heading id={headingId} className={styles.author}>
            <Link to={communityPages.profile(post.author.userId)}>{post.author.username}</Link>
            <RoleBadge role={post.author.role} />
          </Heading>
          <Link to={communityPages.post(post.postId)} className={styles.when}>
            <time dateTime={post.createdAt}>{formatDayMonth(post.createdAt, lang)}</time>
            {post.editedAt && ` · ${t('post.edited')}`}
            <span className="visually-hidden">{` ${t('post.open')}`}</span>
          </Link>
        </div>
        {pinned && <span className={styles.pinned}>{t('post.pinned')}</span>}
      </header>

      {post.status === 'pending' && (
        <p className={styles.pending} role="note">
          <strong>{t('post.pending')}</strong>
          {` ${t('post.pendingNote')}`}
        </p>
      )}
      {(post.status === 'rejected' || post.status === 'removed') && (
        <p className={styles.rejected} role="note">
          <strong>{t('post.rejected')}</strong>
          {post.statusReason ? ` ${t('post.rejectedReason', { reason: post.statusReason })}` : null}
        </p>
      )}

      {post.text && <PostText text={post.text} mentions={post.mentions} lang={post.lang} />}
      <PostImages post={post} />
      {post.shared?.kind === 'post' && post.shared.post && (
        <SharedPostCard post={post.shared.post} />
      )}
      {post.shared?.kind === 'story' && post.shared.story && (
        <Link to={detailsPath(post.shared.story.storyId)} className={styles.sharedStory}>
          <Cover storyId={post.shared.story.storyId} alt="" width={64} />
          <span>
            <span className={styles.sharedLabel}>{t('post.sharedStory')}</span>
            <span
              className={styles.sharedTitle}
              lang={post.shared.story.lang === 'sinhala' ? 'si' : 'en'}
            >
              {post.shared.story.title}
            </span>
          </span>
        </Link>
      )}

      <p className={styles.counts}>
        <span>{t('post.likes', { n: shown.likes })}</span>
        <span>{t('post.comments', { n: comments })}</span>
        <span>{t('post.shares', { n: post.shares })}</span>
      </p>

      {visible && <VisitorActions known={known} visitor={viewer === null} />}
      {known && viewer !== null && (
        <div className={styles.actions}>
          {visible && (
            <>
              <button
                type="button"
                className={shown.liked ? styles.actionOn : styles.action}
                aria-pressed={shown.liked}
                onClick={onLike}
              >
                {t('post.like')}
              </button>
              <button
                type="button"
                className={styles.action}
                aria-expanded={commentsOpen}
                onClick={() => setCommentsOpen((o) => !o)}
              >
                {t('post.comment')}
              </button>
              <button type="button" className={styles.action} onClick={() => setDialog('share')}>
                {t('post.share')}
              </button>
            </>
          )}
          <span className={styles.actionsEnd}>
            {!mine && visible && (
              <button type="button" className={styles.quiet} onClick={() => setDialog('flag')}>
                {t('post.flag')}
              </button>
            )}
            {editor && visible && (
              <button type="button" className={styles.quiet} onClick={onPin}>
                {pinned ? t('post.unpin') : t('post.pin')}
              </button>
            )}
            {editor && !mine && (
              <button type="button" className={styles.quiet} onClick={() => setDialog('remove')}>
                {t('post.remove')}
              </button>
            )}
            {mine && !confirmDelete && (
              <button type="button" className={styles.quiet} onClick={() => setConfirmDelete(true)}>
                {t('post.delete')}
              </button>
            )}
          </span>
        </div>
      )}
      {confirmDelete && (
        <div className={styles.confirm} role="group" aria-label={t('post.deleteConfirm')}>
          <span>{t('post.deleteConfirm')}</span>
          <button type="button" className={styles.danger} onClick={onDelete}>
            {t('post.deleteYes')}
          </button>
          <button type="button" className={styles.quiet} onClick={() => setConfirmDelete(false)}>
            {t('post.deleteNo')}
          </button>
        </div>
      )}
      <Feedback error={error} note={note} />
      {commentsOpen && visible && (
        <PostComments
          postId={post.postId}
          author={post.author}
          viewer={known ? viewer : null}
          onPosted={() => setComments((n) => n + 1)}
        />
      )}
      {dialog === 'share' && (
        <ShareDialog
          postId={post.postId}
          onClose={() => setDialog(null)}
          onShared={() => {
            setDialog(null);
            setNote(t('post.shared'));
            void refreshCommunity(client);
          }}
        />
      )}
      {dialog === 'flag' && (
        <ReportDialog
          title={t('flag.titlePost')}
          send={(reason) => flagPost(post.postId, reason)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'remove' && (
        <ReasonDialog
          title={t('post.removeTitle')}
          label={t('post.removeReason')}
          submitLabel={t('post.removeSend')}
          onClose={() => setDialog(null)}
          send={(reason) =>
            deletePost(post.postId, reason).then(() => {
              void refreshCommunity(client);
              props.onGone?.();
            })
          }
        />
      )}
    </article>
  );
}

/** Where a visitor would act: Login and Join, back to this page afterwards. */
function VisitorActions({ known, visitor }: { known: boolean; visitor: boolean }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  if (known && !visitor) return null;
  return (
    <p className={known ? styles.visitorActions : `${styles.visitorActions} visitor-only`}>
      <span>{t('post.loginToAct')}</span>
      <Link to={authHref('/login', pathname)}>{t('nav.login')}</Link>
      <Link to={authHref('/signup', pathname)}>{t('nav.join')}</Link>
    </p>
  );
}

/** A post's images, largest first in the srcset, at the width the card shows them. */
function PostImages({ post }: { post: Post | SharedPost }) {
  const { t } = useI18n();
  if (post.images.length === 0) return null;
  const many = post.images.length > 1;
  return (
    <ul
      className={many ? styles.imagesGrid : styles.images}
      aria-label={t('post.images')}
      data-count={post.images.length}
    >
      {post.images.map((image, i) => (
        <li key={image.imageId}>
          <img
            src={image.src}
            srcSet={image.srcset}
            sizes={many ? '(min-width: 768px) 300px, 50vw' : '(min-width: 768px) 600px, 100vw'}
            width={image.width}
            height={image.height}
            alt={t('post.imageAlt', { n: i + 1, name: post.author.username })}
            loading="lazy"
            decoding="async"
          />
        </li>
      ))}
    </ul>
  );
}

/** The post a share carries, one level deep and without actions. */
function SharedPostCard({ post }: { post: SharedPost }) {
  const { t } = useI18n();
  return (
    <div className={styles.sharedPost}>
      <p className={styles.sharedLabel}>
        <Link to={communityPages.profile(post.author.userId)}>{post.author.username}</Link>
        {' · '}
        <Link to={communityPages.post(post.postId)}>{t('post.open')}</Link>
      </p>
      {post.text && <PostText text={post.text} mentions={post.mentions} lang={post.lang} />}
      <PostImages post={post} />
    </div>
  );
}
