import { Link } from 'react-router';
import { detailsPath, FEE_RUPEES_PER_MONTH } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { ProviderButtons } from '../auth/ProviderButtons.tsx';
import ui from '../../components/ui.module.css';
import styles from './reader.module.css';

/**
 * The wall for visitors: Login and Join, each coming back to this story afterwards. Of a
 * members-only story it says that a membership is needed too (an account alone opens nothing).
 */
export function VisitorWall(props: { storyId: number; membersOnly?: boolean }) {
  const { t } = useI18n();
  const path = detailsPath(props.storyId);
  const back = encodeURIComponent(path);
  return (
    <section className={styles.wall} aria-labelledby="wall-title">
      <h2 id="wall-title" className={styles.wallTitle}>
        {t('wall.title')}
      </h2>
      <p>
        {props.membersOnly ? t('wall.textMembers', { fee: FEE_RUPEES_PER_MONTH }) : t('wall.text')}
      </p>
      <div className={styles.wallActions}>
        <Link className={ui.button} to={`/signup?redirect=${back}`}>
          {t('wall.join')}
        </Link>
        <Link className={ui.buttonSecondary} to={`/login?redirect=${back}`}>
          {t('wall.login')}
        </Link>
      </div>
      <ProviderButtons redirect={path} row />
    </section>
  );
}
