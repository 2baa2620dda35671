import { NavLink } from 'react-router';
import { useSession } from '../features/auth/useSession.ts';
import { useAuthActions } from '../features/auth/AuthEffects.tsx';
import { useI18n } from '../i18n/index.tsx';
import styles from './Header.module.css';

/**
 * The main menu (SPEC.md 2): only items whose pages exist; Write a story for readers and
 * Statistics for authors. Before the session is known (server render and hydration) both
 * variants are in the page and CSS shows the right one from a flag index.html sets before first
 * paint, so a logged-in reader never sees Login flash by.
 */
export function MainNav(props: { className?: string; onNavigate?: () => void }) {
  const { t } = useI18n();
  const session = useSession();
  const { logout } = useAuthActions();
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `${styles.navLink} ${isActive ? styles.navLinkActive : ''}`;
  const showReader = session.status !== 'visitor';
  const showVisitor = session.status !== 'reader';
  const unknown = session.status === 'unknown';
  const isAuthor = session.status === 'reader' && session.author;

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
      {showReader && (
        <>
          <li className={unknown ? 'reader-only' : undefined}>
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
          <li className={unknown ? 'reader-only' : undefined}>
            <NavLink to="/account" className={linkClass} onClick={props.onNavigate}>
              {t('nav.account')}
            </NavLink>
          </li>
          <li className={unknown ? 'reader-only' : undefined}>
            <button
              type="button"
              className={styles.navLink}
              onClick={() => {
                props.onNavigate?.();
                void logout();
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
            <NavLink to="/login" className={linkClass} onClick={props.onNavigate}>
              {t('nav.login')}
            </NavLink>
          </li>
          <li className={unknown ? 'visitor-only' : undefined}>
            <NavLink
              to="/signup"
              className={`${styles.navLink} ${styles.navJoin}`}
              onClick={props.onNavigate}
            >
              {t('nav.join')}
            </NavLink>
          </li>
        </>
      )}
    </ul>
  );
}
