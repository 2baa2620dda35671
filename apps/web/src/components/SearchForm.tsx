import { useId, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LIMITS } from '@kathamala/domain';
import { useI18n } from '../i18n/index.tsx';
import { SinglishToggle } from '../features/singlish/SinglishToggle.tsx';
import { useSinglishTyping } from '../features/singlish/useSinglishTyping.ts';
import styles from './Header.module.css';

/** The header search box. A plain GET form, so it works before the script has loaded. */
export function SearchForm() {
  const { t } = useI18n();
  const id = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const current = location.pathname === '/search' ? (params.get('q') ?? '') : '';
  // Singlish typing: 'gedara' shows as ගෙදර while typed (the server finds either anyway).
  const singlish = useSinglishTyping<HTMLInputElement>();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = String(new FormData(e.currentTarget).get('q') ?? '').trim();
    navigate(q ? `/search?q=${encodeURIComponent(q)}` : '/search');
  };

  return (
    <form className={styles.search} role="search" action="/search" method="get" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <input
        key={current}
        ref={singlish.ref}
        id={id}
        className={styles.searchInput}
        type="search"
        name="q"
        defaultValue={current}
        placeholder={t('search.placeholder')}
        maxLength={LIMITS.searchQueryChars}
        autoComplete="off"
        enterKeyHint="search"
      />
      <SinglishToggle variant="compact" undoable={singlish.undoable} onUndo={singlish.undo} />
      <button type="submit" className={styles.searchButton}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
          <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">{t('search.submit')}</span>
      </button>
    </form>
  );
}
