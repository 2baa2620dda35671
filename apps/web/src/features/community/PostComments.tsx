import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { COMMUNITY, communityPaths, type PostComment } from '@kathamala/domain';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { formatDayMonth } from '../../i18n/dates.ts';
import { useI18n } from '../../i18n/index.tsx';
import { CommentBox } from '../comments/CommentBox.tsx';
import { commentOnPost, useComments } from './api.ts';
import { Avatar, RoleBadge } from './Avatar.tsx';
import { communityPages } from './paths.ts';
import { PostText } from './PostText.tsx';
import styles from './community.module.css';

/**
 * A post's comments, oldest first, page by page, and the box to write one (with @mentions of
 * the viewer's followers and the people in the thread, and Singlish typing as in story comments).
 */
export function PostComments(props: {
  postId: number;
  /** The post's writer, the first of the thread's people. */
  author: { userId: number; username: string };
  viewer: { userId: number } | null;
  onPosted?: () => void;
}) {
  const { t } = useI18n();
  const client = useQueryClient();
  const [pages, setPages] = useState(1);
  const first = useComments(props.postId, 1, true);
  const followers = first.data?.followers ?? [];

  const people = () => {
    const seen = new Map<number, { userId: number; username: string }>();
    seen.set(props.author.userId, props.author);
    for (const f of followers) seen.set(f.userId, f);
    for (let p = 1; p <= pages; p++) {
      const page = client.getQueryData<{ list: PostComment[] }>([
        communityPaths.comments(props.postId, p),
      ]);
      for (const c of page?.list ?? []) seen.set(c.author.userId, c.author);
    }
    return [...seen.values()];
  };

  const send = async (text: string) => {
    await commentOnPost(props.postId, text);
    props.onPosted?.();
    // The new comment is at the end: the pages read afresh.
    await client.invalidateQueries({
      predicate: (q) =>
        typeof q.queryKey[0] === 'string' &&
        q.queryKey[0].startsWith(`/api/v1/community/post/comments?post_id=${props.postId}&`),
    });
  };

  return (
    <section className={styles.comments} aria-label={t('post.commentsTitle')}>
      {first.isPending ? (
        <SkeletonLines lines={2} label={t('common.loading')} />
      ) : (
        Array.from({ length: pages }, (_, i) => (
          <CommentPage
            key={i + 1}
            postId={props.postId}
            page={i + 1}
            last={i + 1 === pages}
            onMore={() => setPages((n) => n + 1)}
          />
        ))
      )}
      {props.viewer && (
        <CommentBox
          label={t('post.commentLabel')}
          placeholder={t('post.commentPlaceholder')}
          submitLabel={t('post.commentSend')}
          people={people}
          viewerId={props.viewer.userId}
          maxChars={COMMUNITY.commentChars}
          onSubmit={send}
        />
      )}
    </section>
  );
}

function CommentPage(props: { postId: number; page: number; last: boolean; onMore: () => void }) {
  const { t } = useI18n();
  const query = useComments(props.postId, props.page, true);
  if (!query.data) return query.isPending ? <SkeletonLines lines={1} /> : null;
  const { list, hasNext } = query.data;
  if (props.page === 1 && list.length === 0)
    return <p className={styles.muted}>{t('post.noComments')}</p>;
  return (
    <>
      <ul className={styles.commentList}>
        {list.map((c) => (
          <CommentRow key={c.id} comment={c} />
        ))}
      </ul>
      {props.last && hasNext && (
        <button type="button" className={styles.quiet} onClick={props.onMore}>
          {t('post.moreComments')}
        </button>
      )}
    </>
  );
}

function CommentRow({ comment: c }: { comment: PostComment }) {
  const { t, lang } = useI18n();
  return (
    <li className={styles.commentRow} data-comment-id={c.id}>
      <Avatar name={c.author.username} avatar={c.author.avatar} />
      <div className={styles.commentBody}>
        <p className={styles.commentHead}>
          <Link to={communityPages.profile(c.author.userId)}>{c.author.username}</Link>
          <RoleBadge role={c.author.role} />
          <time dateTime={c.createdAt} className={styles.when}>
            {formatDayMonth(c.createdAt, lang)}
          </time>
        </p>
        {c.status === 'pending' && <p className={styles.pending}>{t('post.pending')}</p>}
        {c.status === 'rejected' && (
          <p className={styles.rejected}>
            {c.statusReason
              ? t('post.rejectedReason', { reason: c.statusReason })
              : t('post.rejected')}
          </p>
        )}
        <PostText
          text={c.comment}
          mentions={c.mentions}
          lang={c.lang}
          className={styles.commentText}
        />
      </div>
    </li>
  );
}
