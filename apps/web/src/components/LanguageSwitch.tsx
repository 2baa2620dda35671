import type { UiLang } from '@kathamala/domain';
import { useI18n } from '../i18n/index.tsx';
import styles from './Header.module.css';

const OPTIONS: { lang: UiLang; short: string }[] = [
  { lang: 'en', short: 'EN' },
  { lang: 'si', short: 'සිං' },
];

/** EN | සිං: the UI language switch, always visible in the header. */
export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <div className={styles.langSwitch} role="group" aria-label={t('lang.label')}>
      {OPTIONS.map((o) => (
        <button
          key={o.lang}
          type="button"
          lang={o.lang}
          className={styles.langButton}
          aria-pressed={lang === o.lang}
          title={t(o.lang === 'en' ? 'lang.en' : 'lang.si')}
          onClick={() => setLang(o.lang)}
        >
          {o.short}
        </button>
      ))}
    </div>
  );
}
