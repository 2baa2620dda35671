import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { applyBookmark, setBookmark } from '../../api/engagement.ts';
import { useI18n } from '../../i18n/index.tsx';
import styles from './BookmarkButton.module.css';

/**
 * Adds or removes a bookmark. The button shows what the server answered; an error shows it off
 * (SPEC.md 4: false on error).
 */
export function BookmarkButton(props: { storyId: number; bookmarked: boolean }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const [on, setOn] = useState(props.bookmarked);
  const [busy, setBusy] = useState(false);

  const toggle = () => {
    if (busy) return;
    setBusy(true);
    setBookmark(props.storyId, !on)
      .then(
        ({ bookmarked }) => {
          setOn(bookmarked);
          applyBookmark(client, props.storyId, bookmarked);
        },
        () => setOn(false),
      )
      .finally(() => setBusy(false));
  };

  return (
    <button
      type="button"
      className={styles.button}
      aria-pressed={on}
      aria-busy={busy || undefined}
      onClick={toggle}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M6 3.5h12a1 1 0 0 1 1 1v16l-7-4.2-7 4.2v-16a1 1 0 0 1 1-1z"
          fill={on ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
      {t(on ? 'bookmark.saved' : 'bookmark.add')}
    </button>
  );
}
