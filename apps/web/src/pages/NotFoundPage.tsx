import { Link } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import styles from '../components/page.module.css';

/** The friendly 404 page (the server answers it with status 404). */
export function NotFoundPage() {
  const { t } = useI18n();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className={styles.notFound} aria-labelledby="not-found-heading">
      <p className={styles.bigNumber} aria-hidden="true">
        404
      </p>
      <h1 id="not-found-heading">{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link className={ui.button} to="/">
        {t('notFound.home')}
      </Link>
    </section>
  );
}

export default NotFoundPage;
