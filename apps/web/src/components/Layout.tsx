import { Suspense, type MouseEvent } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Header } from './Header.tsx';
import { HydrateLater } from './HydrateLater.tsx';
import { ErrorNotice } from './Notice.tsx';
import { OptionMenu } from './OptionMenu.tsx';
import { SkeletonLines } from './Skeleton.tsx';
import styles from './Layout.module.css';

// The context menu is off across the app (SPEC.md 2: part of the anti-copy measures).
const blockContextMenu = (e: MouseEvent) => e.preventDefault();

export function Layout() {
  const { t } = useI18n();
  const { pathname } = useLocation();
  return (
    <div className={styles.app} onContextMenu={blockContextMenu}>
      <a href="#main" className={styles.skip}>
        {t('nav.skip')}
      </a>
      <HydrateLater>
        <Header />
      </HydrateLater>
      <main id="main" className={styles.main} tabIndex={-1}>
        {pathname !== '/' && <OptionMenu />}
        <ErrorBoundary resetKey={pathname} fallback={(retry) => <ErrorNotice onRetry={retry} />}>
          <Suspense fallback={<SkeletonLines lines={6} label={t('common.loading')} />}>
            {/* The page hydrates after the first pass (the router and the layout), its own
                parts after it. */}
            <HydrateLater>
              <Outlet />
            </HydrateLater>
          </Suspense>
        </ErrorBoundary>
      </main>
      <footer className={styles.footer}>
        <p>
          <strong>Kathamala</strong> · <span lang="si">කතාමාලා</span>
        </p>
        <p>{t('footer.tagline')}</p>
      </footer>
    </div>
  );
}
