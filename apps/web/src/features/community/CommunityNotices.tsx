import { Link } from 'react-router';
import type { CommunityNotification } from '@kathamala/domain';
import { formatDayMonth } from '../../i18n/dates.ts';
import { useI18n, type MessageKey } from '../../i18n/index.tsx';
import { textLang } from '../stories/lang.ts';
import { useCommunityNotifications } from './api.ts';
import { communityPages } from './paths.ts';
import drawer from '../../components/NotificationDrawer.module.css';

/** What a community notification says, by its kind, in the reader's language. */
export const NOTICE_LABEL: Record<CommunityNotification['kind'], MessageKey> = {
  like: 'notifications.like',
  comment: 'notifications.postComment',
  mention: 'notifications.mention',
  share: 'notifications.share',
  follow: 'notifications.follow',
};

/** Where a community notification leads: the post it is about, or the new follower. */
export const noticeHref = (n: CommunityNotification): string =>
  n.postId !== null ? communityPages.post(n.postId) : communityPages.profile(n.actor.userId);

/**
 * The community's notifications in the drawer (likes, comments, mentions, shares, follows),
 * worded here from their kind so they read in the reader's language. Opening the drawer loads
 * them, which marks them read. Nothing shows when there are none.
 */
export function CommunityNotices(props: { onOpen: () => void }) {
  const { t, lang } = useI18n();
  const query = useCommunityNotifications(true);
  const list = query.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <ul className={drawer.list} aria-label={t('community.title')}>
      {list.map((n) => (
        <li
          key={n.id}
          className={`${drawer.item} ${n.read ? '' : drawer.unread}`}
          data-notice-kind={n.kind}
        >
          <Link to={noticeHref(n)} className={drawer.link} onClick={props.onOpen}>
            {!n.read && <span className="visually-hidden">{`${t('notifications.unread')}: `}</span>}
            <span className={drawer.kind}>
              <span lang={textLang(n.actor.username)}>{n.actor.username}</span>
              {` · ${t(NOTICE_LABEL[n.kind])}`}
            </span>
            {n.excerpt && (
              <span className={drawer.description} lang={textLang(n.excerpt)}>
                {n.excerpt}
              </span>
            )}
            <span className={drawer.date}>{formatDayMonth(n.createdAt, lang)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
