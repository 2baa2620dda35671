import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { UiLang } from '@kathamala/domain';
import type { MessageKey } from './en.ts';

export type { MessageKey };
export type Vars = Record<string, string | number>;
export type Translate = (key: MessageKey, vars?: Vars) => string;
export type Catalogue = Record<MessageKey, string>;

// Each language's strings are a chunk of their own: a page needs one of them, and both together
// are a fifth of the first load's script. The browser loads the page's language before it
// hydrates (the server preloads it); the server and tests register both up front.
const catalogues: Partial<Record<UiLang, Catalogue>> = {};
const loaders: Record<UiLang, () => Promise<Catalogue>> = {
  en: () => import('./en.ts').then((m) => m.en),
  si: () => import('./si.ts').then((m) => m.si),
};

/** Makes a language's strings available synchronously (the server render and tests). */
export const registerCatalogue = (lang: UiLang, catalogue: Catalogue): void => {
  catalogues[lang] = catalogue;
};

/** Loads a language's strings once; resolves when `translator(lang)` can be used. */
export const loadCatalogue = async (lang: UiLang): Promise<void> => {
  catalogues[lang] ??= await loaders[lang]();
};

/** True when a language's strings are loaded. */
export const hasCatalogue = (lang: UiLang): boolean => catalogues[lang] !== undefined;

const catalogue = (lang: UiLang): Catalogue => {
  const found = catalogues[lang];
  if (!found) throw new Error(`the '${lang}' strings are not loaded (loadCatalogue first)`);
  return found;
};

/** Fills `{name}` placeholders; an unknown placeholder stays as written so a gap is visible. */
export const format = (text: string, vars?: Vars): string =>
  vars
    ? text.replace(/\{(\w+)\}/g, (whole, name: string) =>
        name in vars ? String(vars[name]) : whole,
      )
    : text;

export const translator =
  (lang: UiLang): Translate =>
  (key, vars) =>
    format(catalogue(lang)[key], vars);

export const isUiLang = (value: unknown): value is UiLang => value === 'en' || value === 'si';

interface I18nValue {
  lang: UiLang;
  t: Translate;
  setLang: (lang: UiLang) => void;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider(props: {
  lang: UiLang;
  setLang: (lang: UiLang) => void;
  children: ReactNode;
}) {
  const { lang, setLang } = props;
  const value = useMemo(() => ({ lang, setLang, t: translator(lang) }), [lang, setLang]);
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
