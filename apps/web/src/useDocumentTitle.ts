import { useEffect } from 'react';
import { useI18n } from './i18n/index.tsx';
import { pageTitle } from './page-title.ts';

/** Keeps the browser title in step with the page after client navigation. */
export function useDocumentTitle(title?: string): void {
  const { t } = useI18n();
  const full = pageTitle(t, title);
  useEffect(() => {
    document.title = full;
  }, [full]);
}
