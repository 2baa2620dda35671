import { Link } from 'react-router';
import ui from '../../components/ui.module.css';
import { useI18n } from '../../i18n/index.tsx';
import styles from './community.module.css';

/** The outcome of an action next to it: a failure (announced at once) and a quiet success. */
export function Feedback(props: { error?: string; note?: string }) {
  return (
    <>
      {props.error && (
        <p className={styles.error} role="alert">
          {props.error}
        </p>
      )}
      {props.note && (
        <p className={styles.note} role="status">
          {props.note}
        </p>
      )}
    </>
  );
}

/** Newer and Older links of a paged list (`?page=N`), plain links that work without JavaScript. */
export function PageLinks(props: { page: number; hasNext: boolean }) {
  const { t } = useI18n();
  return (
    <p className={styles.row}>
      {props.page > 1 && (
        <Link className={ui.buttonSecondary} to={`?page=${props.page - 1}`}>
          {t('community.newer')}
        </Link>
      )}
      {props.hasNext && (
        <Link className={ui.buttonSecondary} to={`?page=${props.page + 1}`}>
          {t('community.older')}
        </Link>
      )}
    </p>
  );
}
