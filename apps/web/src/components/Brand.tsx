import { Link } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import styles from './Header.module.css';

/**
 * The home link: its name is the visible wordmark plus a word for screen readers, so speech
 * control users can say what they see (WCAG 2.5.3: the accessible name contains the visible text).
 */
export function Brand() {
  const { t } = useI18n();
  return (
    <Link to="/" className={styles.brand}>
      <svg className={styles.logo} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill="currentColor" />
        <path d="M18 16h12a6 6 0 0 1 6 6v28a5 5 0 0 0-5-5H18z" fill="#faf6ee" />
        <path d="M46 16H36a6 6 0 0 0-6 6v28a5 5 0 0 1 5-5h11z" fill="#f3e7cf" />
        <circle cx="32" cy="54" r="3.2" fill="#e8972f" />
        <circle cx="22" cy="52" r="2.4" fill="#e8972f" />
        <circle cx="42" cy="52" r="2.4" fill="#e8972f" />
      </svg>
      <span className={styles.wordmark}>
        <span className={styles.wordmarkEn}>Kathamala</span>{' '}
        <span className={styles.wordmarkSi} lang="si">
          කතාමාලා
        </span>
      </span>
      {/* Spaces between the words: a grid lays them out, but the name is read as text. */}{' '}
      <span className="visually-hidden">{t('brand.home')}</span>
    </Link>
  );
}
