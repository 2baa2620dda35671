import { useEffect, useId, useRef, useState } from 'react';
import { useRemoveComment } from '../../api/engagement.ts';
import { useI18n } from '../../i18n/index.tsx';
import styles from './comments.module.css';

/**
 * Remove, for the writer of a comment or reply: a tap asks first (Yes, remove / Keep it), so a
 * slip of the thumb loses nothing. The question takes Remove's place and the buttons come after
 * it, so a second tap on the same spot does not answer it. A failed removal only stops the
 * spinner (SPEC.md 8).
 */
export function RemoveComment(props: {
  storyId: number;
  episode: number;
  commentId: number;
  parentId?: number;
}) {
  const { t } = useI18n();
  const id = useId();
  const remove = useRemoveComment(props.storyId, props.episode);
  const [asking, setAsking] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);

  // The focus follows the question: to Keep it when asked, back to Remove when kept.
  useEffect(() => {
    if (moved.current) (asking ? keepButton : removeButton).current?.focus();
  }, [asking]);

  const ask = (next: boolean) => {
    moved.current = true;
    setAsking(next);
  };

  if (!asking)
    return (
      <button ref={removeButton} type="button" className={styles.quiet} onClick={() => ask(true)}>
        {t('comments.remove')}
      </button>
    );

  return (
    <span
      className={styles.confirm}
      role="group"
      aria-labelledby={`${id}-ask`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') ask(false);
      }}
    >
      <span id={`${id}-ask`} className={styles.confirmText}>
        {t('comments.removeConfirm')}
      </span>
      <button
        type="button"
        className={styles.quietDanger}
        disabled={remove.isPending}
        aria-busy={remove.isPending || undefined}
        onClick={() => remove.mutate({ commentId: props.commentId, parentId: props.parentId })}
      >
        {remove.isPending && <span className={styles.spinner} aria-hidden="true" />}
        {t('comments.removeYes')}
      </button>
      <button ref={keepButton} type="button" className={styles.quiet} onClick={() => ask(false)}>
        {t('comments.removeNo')}
      </button>
    </span>
  );
}
