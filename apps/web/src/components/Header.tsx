import { useRef } from 'react';
import { useLocation } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import { Brand } from './Brand.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { MainNav } from './MainNav.tsx';
import { SearchForm } from './SearchForm.tsx';
import styles from './Header.module.css';

export function Header() {
  const { t } = useI18n();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute('open');

  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <Brand />
        <nav className={styles.desktopNav} aria-label={t('nav.main')}>
          <MainNav />
        </nav>
        <SearchForm />
        <LanguageSwitch />
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
          </summary>
          <nav className={styles.menuPanel} aria-label={t('nav.main')}>
            <MainNav onNavigate={close} />
          </nav>
        </details>
      </div>
    </header>
  );
}
