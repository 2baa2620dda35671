import { useI18n } from '../../i18n/index.tsx';
import styles from './singlish.module.css';

/** "Converted from FM Abhaya. Undo": shown after a legacy-font paste was turned into Unicode. */
export function LegacyPasteNotice(props: { onUndo: () => void }) {
  const { t } = useI18n();
  return (
    <p className={styles.legacyNotice} role="status">
      <span>{t('legacy.converted')}</span>
      <button type="button" className={styles.legacyUndo} onClick={props.onUndo}>
        {t('legacy.undo')}
      </button>
    </p>
  );
}
