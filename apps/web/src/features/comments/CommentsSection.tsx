import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { COMMENTS_SHOWN_INITIALLY, type Comment, type MentionCandidate } from '@kathamala/domain';
import { repliesKey, useComments, usePostComment, viewerKey } from '../../api/engagement.ts';
import { useI18n } from '../../i18n/index.tsx';
import { CommentBox } from './CommentBox.tsx';
import { CommentItem } from './CommentItem.tsx';
import styles from './comments.module.css';

/**
 * The responses to an episode (SPEC.md 2): a box to write one, the newest five until Read all
 * responses, each with its replies on demand. Loaded with the section (it is lazy), and a failed
 * load is an empty list (SPEC.md 8).
 */
export default function CommentsSection(props: {
  storyId: number;
  episode: number;
  episodeId: number;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const client = useQueryClient();
  const { storyId, episode } = props;
  const comments = useComments(storyId, episode, true);
  const post = usePostComment(storyId, episode, props.episodeId);
  const [showAll, setShowAll] = useState(false);
  const viewer = Number(viewerKey()) || undefined;

  const list = comments.data?.comments ?? [];
  const followers = comments.data?.followers;

  // Mentions offer the reader's followers and everyone who wrote in the loaded thread.
  const people = (): MentionCandidate[] => {
    const writers = (c: Comment): MentionCandidate => ({
      userId: c.userId,
      username: c.unicodeCompatibleUsername,
    });
    const out: MentionCandidate[] = [...(followers ?? [])];
    for (const c of list) {
      out.push(writers(c));
      const replies = client.getQueryData<{ list: Comment[] }>(repliesKey(c.commentId));
      for (const r of replies?.list ?? []) out.push(writers(r));
    }
    return out;
  };

  const thread = { storyId, episode, viewerId: viewer, people };
  const shown = showAll ? list : list.slice(0, COMMENTS_SHOWN_INITIALLY);

  return (
    <section className={styles.section} aria-labelledby={titleId} id="responses">
      <h2 id={titleId} className={styles.title}>
        {t('comments.title')}
        {list.length > 0 && <span className={styles.count}>{list.length}</span>}
      </h2>
      <CommentBox
        label={t('comments.label')}
        placeholder={t('comments.placeholder')}
        submitLabel={t('comments.send')}
        people={people}
        viewerId={viewer}
        onSubmit={(text) => post.mutateAsync(text)}
      />
      {comments.isPending ? (
        <p className={styles.loading} role="status">
          {t('comments.loading')}
        </p>
      ) : list.length === 0 ? (
        <p className={styles.empty}>{t('comments.empty')}</p>
      ) : (
        <ul className={styles.list}>
          {shown.map((c) => (
            <CommentItem key={c.commentId} comment={c} thread={thread} />
          ))}
        </ul>
      )}
      {!showAll && list.length > COMMENTS_SHOWN_INITIALLY && (
        <button type="button" className={styles.readAll} onClick={() => setShowAll(true)}>
          {t('comments.readAll')}
        </button>
      )}
    </section>
  );
}
