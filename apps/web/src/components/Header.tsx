import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useUnreadCount } from '../api/social.ts';
import { useSession } from '../features/auth/useSession.ts';
import { useI18n } from '../i18n/index.tsx';
import { Brand } from './Brand.tsx';
import { HydrateLater } from './HydrateLater.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { MainNav } from './MainNav.tsx';
import { NotificationDrawer } from './NotificationDrawer.tsx';
import { SearchForm } from './SearchForm.tsx';
import styles from './Header.module.css';

export function Header() {
  const { t } = useI18n();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute('open');
  // The drawer has no route (SPEC.md 2): it opens from either copy of the menu.
  const [drawerOpen, setDrawerOpen] = useState(false);
  const reader = useSession().status === 'reader';
  // On a phone the menu is closed: its button says there is something new.
  const unread = useUnreadCount(reader).data?.unread ?? 0;
  const openDrawer = () => setDrawerOpen(true);

  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <Brand />
        {/* The two copies of the menu (one is hidden at any width) hydrate in tasks of their own. */}
        <HydrateLater>
          <nav className={styles.desktopNav} aria-label={t('nav.main')}>
            <MainNav onOpenNotifications={openDrawer} />
          </nav>
        </HydrateLater>
        {/* So do the search form and the language switch: together with the bar they were one
            task of over 50 ms on a phone. */}
        <HydrateLater>
          <SearchForm />
        </HydrateLater>
        <HydrateLater>
          <LanguageSwitch />
        </HydrateLater>
        {/* <details> opens and closes without JavaScript, so the menu works before hydration. */}
        <details className={styles.mobileMenu} ref={menu} key={location.key}>
          <summary className={styles.menuButton}>
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path
                d="M4 7h16M4 12h16M4 17h16"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
              />
            </svg>
            <span className={styles.menuLabel}>{t('nav.menu')}</span>
            {reader && unread > 0 && (
              <span className={styles.menuDot}>
                <span className="visually-hidden">{t('nav.unread', { n: unread })}</span>
              </span>
            )}
          </summary>
          <HydrateLater>
            {/* The id is what index.html's rel=expect waits for before the first paint. */}
            <nav id="menu-panel" className={styles.menuPanel} aria-label={t('nav.main')}>
              <MainNav onNavigate={close} onOpenNotifications={openDrawer} />
            </nav>
          </HydrateLater>
        </details>
      </div>
      {drawerOpen && reader && <NotificationDrawer onClose={() => setDrawerOpen(false)} />}
    </header>
  );
}
