import { useState } from 'react';
import {
  displayCommentRating,
  displayUsername,
  type Comment,
  type MentionCandidate,
} from '@kathamala/domain';
import { usePostReply, useReplies } from '../../api/engagement.ts';
import { useI18n } from '../../i18n/index.tsx';
import { textLang } from '../stories/lang.ts';
import { CommentBox } from './CommentBox.tsx';
import { MentionText } from './MentionText.tsx';
import { RemoveComment } from './RemoveComment.tsx';
import { ReportDialog } from './ReportDialog.tsx';
import styles from './comments.module.css';

interface Thread {
  storyId: number;
  episode: number;
  viewerId?: number;
  people: () => MentionCandidate[];
}

/**
 * One comment (or reply): the writer's name as SPEC.md 5 shows it, a verified badge and no rating
 * for the author, the text always as text, Remove for the writer, Report for everyone, and for a
 * comment its replies, loaded when opened.
 */
export function CommentItem(props: { comment: Comment; parentId?: number; thread: Thread }) {
  const { t } = useI18n();
  const { comment: c, thread } = props;
  const isReply = props.parentId !== undefined;
  const [open, setOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const rating =
    !c.isAuthor && c.rating !== null && c.rating > 0 ? displayCommentRating(c.rating) : null;

  return (
    <li className={styles.comment} data-comment-id={c.commentId}>
      <div className={styles.head}>
        <span className={styles.name} lang={textLang(c.unicodeCompatibleUsername)}>
          {displayUsername(c.unicodeCompatibleUsername)}
        </span>
        {c.isAuthor && (
          <span className={styles.verified}>
            <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
              <path
                d="M8 .8l1.9 1.4 2.3-.1.7 2.2 1.9 1.4-.8 2.2.8 2.2-1.9 1.4-.7 2.2-2.3-.1L8 15.2l-1.9-1.4-2.3.1-.7-2.2-1.9-1.4.8-2.2-.8-2.2 1.9-1.4.7-2.2 2.3.1z"
                fill="currentColor"
              />
              <path
                d="M5 8.2l2 2 4-4.2"
                className={styles.check}
                strokeWidth="1.6"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            {t('comments.author')}
          </span>
        )}
        {rating !== null && (
          <span className={styles.rating} aria-label={t('story.rating', { n: rating })}>
            <span aria-hidden="true">{`★ ${rating}`}</span>
          </span>
        )}
        <span className={styles.date}>{c.createdDate}</span>
      </div>
      {/* Text only, ever (mentions are links made here): React escapes it, CSS keeps the breaks. */}
      <p className={styles.text} lang={textLang(c.unicodeCompatibleFeedback)}>
        <MentionText text={c.unicodeCompatibleFeedback} mentions={c.mentions} />
      </p>
      <div className={styles.actions}>
        {!isReply && (
          <button
            type="button"
            className={styles.quiet}
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
          >
            {open
              ? t('comments.hideReplies')
              : c.repliesCount === 0
                ? t('comments.reply')
                : t('comments.replies', { n: c.repliesCount })}
          </button>
        )}
        {c.editable && (
          <RemoveComment
            storyId={thread.storyId}
            episode={thread.episode}
            commentId={c.commentId}
            parentId={props.parentId}
          />
        )}
        <button type="button" className={styles.quiet} onClick={() => setReporting(true)}>
          {t('comments.report')}
        </button>
      </div>
      {reporting && <ReportDialog commentId={c.commentId} onClose={() => setReporting(false)} />}
      {open && <Replies comment={c} thread={thread} />}
    </li>
  );
}

function Replies({ comment, thread }: { comment: Comment; thread: Thread }) {
  const { t } = useI18n();
  const replies = useReplies(comment.commentId, true);
  const post = usePostReply(thread.storyId, thread.episode, comment.commentId);
  return (
    <div className={styles.replies}>
      {!replies.data ? (
        <p className={styles.loading} role="status">
          {t('comments.loadingReplies')}
        </p>
      ) : (
        replies.data.list.length > 0 && (
          <ul className={styles.list} aria-label={t('comments.repliesLabel')}>
            {replies.data.list.map((r) => (
              <CommentItem
                key={r.commentId}
                comment={r}
                parentId={comment.commentId}
                thread={thread}
              />
            ))}
          </ul>
        )
      )}
      <CommentBox
        label={t('comments.replyLabel')}
        placeholder={t('comments.replyPlaceholder')}
        submitLabel={t('comments.sendReply')}
        people={thread.people}
        viewerId={thread.viewerId}
        sendOnEnter
        autoFocus
        onSubmit={(text) => post.mutateAsync(text)}
      />
    </div>
  );
}
