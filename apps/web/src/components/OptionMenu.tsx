import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import ui from './ui.module.css';
import styles from './Layout.module.css';

/** History entries beyond this count mean there is somewhere inside the app to go back to. */
const MIN_HISTORY_FOR_BACK = 2;

/** Option menu of SPEC.md 2: Back (only when history is long enough) and Home. */
export function OptionMenu() {
  const { t } = useI18n();
  const navigate = useNavigate();
  // History is only known in the browser; read it after hydration so both renders agree.
  const [canGoBack, setCanGoBack] = useState(false);
  useEffect(() => setCanGoBack(window.history.length > MIN_HISTORY_FOR_BACK), []);

  return (
    // Back comes after Home: it appears only after hydration, and placed first it would push
    // Home aside (a layout shift on every story page).
    <nav className={styles.options} aria-label={t('nav.options')}>
      <Link to="/" className={ui.buttonQuiet}>
        {t('nav.home')}
      </Link>
      {canGoBack && (
        <button type="button" className={ui.buttonQuiet} onClick={() => navigate(-1)}>
          <span aria-hidden="true">‹</span>
          {` ${t('nav.back')}`}
        </button>
      )}
    </nav>
  );
}
