import { Link, NavLink, useLocation } from 'react-router';
import { useUnreadCount } from '../api/social.ts';
import { useSession } from '../features/auth/useSession.ts';
import { useAuthActions } from '../features/auth/AuthEffects.tsx';
import { badgeCount } from '../features/notifications/labels.ts';
import { disablePushBeforeLogout } from '../features/push/push.ts';
import { useI18n } from '../i18n/index.tsx';
import styles from './Header.module.css';

/** Pages a header Login or Join comes back to afterwards: a story, an author, the community. */
const RETURN_TO = /^\/(details|author|profile)\/|^\/community(\/|$)/;

/** /login or /signup, carrying `?redirect=` back to a story page the reader started from. */
export const authHref = (to: '/login' | '/signup', pathname: string): string =>
  RETURN_TO.test(pathname) ? `${to}?redirect=${encodeURIComponent(pathname)}` : to;

/**
 * The main menu (SPEC.md 2): Leaderboard, Notifications, Write a story, Bookmarks, Account,
 * Logout; Statistics for authors; Login and Join for visitors. Before the session is known
 * (server render and hydration) both variants are in the page and CSS shows the right one from
 * a flag set before first paint, so a logged-in reader never sees Login flash by.
 */
export function MainNav(props: {
  className?: string;
  onNavigate?: () => void;
  onOpenNotifications?: () => void;
}) {
  const { t } = useI18n();
  const session = useSession();
  const { pathname } = useLocation();
  const { logout } = useAuthActions();
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `${styles.navLink} ${isActive ? styles.navLinkActive : ''}`;
  const showReader = session.status !== 'visitor';
  const showVisitor = session.status !== 'reader';
  const unknown = session.status === 'unknown';
  const isAuthor = session.status === 'reader' && session.author;
  const readerOnly = unknown ? 'reader-only' : undefined;
  const unread = useUnreadCount(session.status === 'reader').data?.unread ?? 0;

  return (
    <ul className={`${styles.navList} ${props.className ?? ''}`}>
      <li>
        <NavLink to="/" end className={linkClass} onClick={props.onNavigate}>
          {t('nav.home')}
        </NavLink>
      </li>
      <li>
        <NavLink to="/category" className={linkClass} onClick={props.onNavigate}>
          {t('nav.categories')}
        </NavLink>
      </li>
      <li>
        <NavLink to="/leaderboard/" className={linkClass} onClick={props.onNavigate}>
          {t('nav.leaderboard')}
        </NavLink>
      </li>
      <li>
        <NavLink to="/community" className={linkClass} onClick={props.onNavigate}>
          {t('nav.community')}
        </NavLink>
      </li>
      {showReader && (
        <>
          <li className={readerOnly}>
            <button
              type="button"
              className={`${styles.navLink} ${styles.bell}`}
              aria-haspopup="dialog"
              onClick={() => {
                props.onNavigate?.();
                props.onOpenNotifications?.();
              }}
            >
              <svg
                className={styles.bellIcon}
                viewBox="0 0 24 24"
                width="20"
                height="20"
                aria-hidden="true"
                focusable="false"
              >
                <path
                  d="M6 17V11a6 6 0 1 1 12 0v6l1.5 2h-15zM10 21h4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.9"
                  strokeLinejoin="round"
                  strokeLinecap="round"
                />
              </svg>
              <span className={styles.bellLabel}>{t('nav.notifications')}</span>
              {unread > 0 && (
                <span className={styles.badge}>
                  <span aria-hidden="true">{badgeCount(unread)}</span>
                  <span className="visually-hidden">{t('nav.unread', { n: unread })}</span>
                </span>
              )}
            </button>
          </li>
          <li className={readerOnly}>
            <NavLink to="/publish/story/" className={linkClass} onClick={props.onNavigate}>
              {t('nav.write')}
            </NavLink>
          </li>
          {/* Only once the session is known: a reader who is no author never sees it flash by. */}
          {isAuthor && (
            <li>
              <NavLink to="/statistics/" className={linkClass} onClick={props.onNavigate}>
                {t('nav.statistics')}
              </NavLink>
            </li>
          )}
          <li className={readerOnly}>
            <NavLink to="/bookmarks/" className={linkClass} onClick={props.onNavigate}>
              {t('nav.bookmarks')}
            </NavLink>
          </li>
          <li className={readerOnly}>
            <NavLink to="/account" className={linkClass} onClick={props.onNavigate}>
              {t('nav.account')}
            </NavLink>
          </li>
          <li className={readerOnly}>
            <button
              type="button"
              className={styles.navLink}
              onClick={() => {
                props.onNavigate?.();
                void disablePushBeforeLogout().then(logout);
              }}
            >
              {t('nav.logout')}
            </button>
          </li>
        </>
      )}
      {showVisitor && (
        <>
          <li className={unknown ? 'visitor-only' : undefined}>
            <Link
              to={authHref('/login', pathname)}
              className={linkClass({ isActive: pathname === '/login' })}
              onClick={props.onNavigate}
            >
              {t('nav.login')}
            </Link>
          </li>
          <li className={unknown ? 'visitor-only' : undefined}>
            <Link
              to={authHref('/signup', pathname)}
              className={`${styles.navLink} ${styles.navJoin}`}
              onClick={props.onNavigate}
            >
              {t('nav.join')}
            </Link>
          </li>
        </>
      )}
    </ul>
  );
}
