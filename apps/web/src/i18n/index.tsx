import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { UiLang } from '@kathamala/domain';
import { en, type MessageKey } from './en.ts';
import { si } from './si.ts';

export type { MessageKey };
export type Vars = Record<string, string | number>;
export type Translate = (key: MessageKey, vars?: Vars) => string;

const catalogues: Record<UiLang, Record<MessageKey, string>> = { en, si };

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
    format(catalogues[lang][key], vars);

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
