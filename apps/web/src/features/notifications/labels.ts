import { NotificationTitle } from '@kathamala/domain';
import type { MessageKey } from '../../i18n/index.tsx';

/**
 * The server names a notification NEW STORY, NEW EPISODE or NEW COMMENT (SPEC.md 3); the drawer
 * shows that in the reader's language. An unknown title is shown as the server wrote it.
 */
export const notificationLabelKey = (title: string): MessageKey | null =>
  title === NotificationTitle.newStory
    ? 'notifications.newStory'
    : title === NotificationTitle.newEpisode
      ? 'notifications.newEpisode'
      : title === NotificationTitle.newComment
        ? 'notifications.newComment'
        : null;

/** The badge text: a big number would not fit the pill. */
export const badgeCount = (unread: number): string => (unread > 99 ? '99+' : String(unread));
