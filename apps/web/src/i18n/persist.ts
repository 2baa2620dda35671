import { UI_LANG_COOKIE, type UiLang } from '@kathamala/domain';
import { isUiLang } from './index.tsx';

const STORAGE_KEY = 'lang';
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Remembers the UI language in localStorage and in the cookie the server renders by. */
export function saveUiLang(lang: UiLang): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Private mode or storage disabled: the cookie still carries the choice.
  }
  document.cookie = `${UI_LANG_COOKIE}=${lang}; path=/; max-age=${ONE_YEAR_S}; samesite=lax`;
  document.documentElement.lang = lang;
}

/** The language remembered in this browser when the server did not get the cookie. */
export function rememberedUiLang(): UiLang | null {
  const hasCookie = document.cookie
    .split(';')
    .some((c) => c.trim().startsWith(`${UI_LANG_COOKIE}=`));
  if (hasCookie) return null;
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return isUiLang(stored) ? stored : null;
  } catch {
    return null;
  }
}
