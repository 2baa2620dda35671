import { useEffect, useId, useRef, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { detailsPath, type Notification } from '@kathamala/domain';
import { useNotifications } from '../api/social.ts';
import { notificationLabelKey } from '../features/notifications/labels.ts';
import { PushPrompt } from '../features/notifications/PushPrompt.tsx';
import { CommunityNotices } from '../features/community/CommunityNotices.tsx';
import { useCommunityNotifications } from '../features/community/api.ts';
import { textLang } from '../features/stories/lang.ts';
import { useI18n } from '../i18n/index.tsx';
import { SkeletonLines } from './Skeleton.tsx';
import styles from './NotificationDrawer.module.css';

/**
 * The notification drawer (SPEC.md 2 and 9): no route, NOTIFICATION_DRAWER_WIDTH (260 px) wide at
 * the side of the screen.
 * A modal <dialog>: focus stays inside, Escape and the backdrop close it, focus goes back to the
 * menu item. Opening it loads the list, which marks everything read (the badge clears).
 */
export function NotificationDrawer(props: { onClose: () => void }) {
  const { t } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const query = useNotifications(true);
  const { onClose } = props;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);

  // A click on the backdrop lands on the <dialog> itself, outside its panel.
  const onDialogClick = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target === e.currentTarget) e.currentTarget.close();
  };

  const list = query.data?.notifications ?? [];
  const community = useCommunityNotifications(true).data?.list.length ?? 0;
  return (
    <dialog
      ref={dialog}
      className={styles.drawer}
      aria-labelledby={`${id}-title`}
      // A close queued by an earlier mount (StrictMode) must not shut the reopened drawer.
      onClose={(e) => {
        if (!e.currentTarget.open) onClose();
      }}
      onClick={onDialogClick}
    >
      <div className={styles.panel}>
        <div className={styles.head}>
          <h2 id={`${id}-title`} className={styles.title}>
            {t('notifications.title')}
          </h2>
          <button
            type="button"
            className={styles.close}
            aria-label={t('notifications.close')}
            onClick={() => dialog.current?.close()}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path
                d="M6 6l12 12M18 6L6 18"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
              />
            </svg>
          </button>
        </div>
        <PushPrompt />
        {/* The community's (likes, comments, mentions, shares, follows), then the stories'. */}
        <CommunityNotices onOpen={() => dialog.current?.close()} />
        {query.isPending ? (
          <SkeletonLines lines={4} label={t('common.loading')} />
        ) : list.length === 0 ? (
          community === 0 && <p className={styles.empty}>{t('notifications.empty')}</p>
        ) : (
          <ul className={styles.list}>
            {list.map((n) => (
              <NotificationItem key={n.id} item={n} onOpen={() => dialog.current?.close()} />
            ))}
          </ul>
        )}
      </div>
    </dialog>
  );
}

function NotificationItem({ item, onOpen }: { item: Notification; onOpen: () => void }) {
  const { t } = useI18n();
  const labelKey = notificationLabelKey(item.title);
  return (
    <li className={`${styles.item} ${item.read ? '' : styles.unread}`}>
      <Link
        to={detailsPath(item.storyId, item.episode)}
        className={styles.link}
        onClick={onOpen}
        // The label and text read as one link; "Unread" is said first for a screen reader.
      >
        {!item.read && <span className="visually-hidden">{`${t('notifications.unread')}: `}</span>}
        <span className={styles.kind}>{labelKey ? t(labelKey) : item.title}</span>
        {/* Text as text: whatever a reader typed in a comment is never markup here. */}
        <span className={styles.description} lang={textLang(item.description)}>
          {item.description}
        </span>
        <span className={styles.date}>{item.createdDate}</span>
      </Link>
    </li>
  );
}
