import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { UiLang } from '@kathamala/domain';
import type { CatalogueKey, MessageKey, PluralKey } from './en.ts';

export type { MessageKey, PluralKey };
export type Vars = Record<string, string | number>;
/** The number a counted message agrees with: `count` when `n` is shown formatted ('1.2K'). */
export type CountVars = Vars & ({ n: number } | { count: number });
/**
 * A message in the UI language. A counted message (`PluralKey`) picks its form for the number
 * by the language's plural rules (Intl.PluralRules): '1 follower', '2 followers'.
 */
export interface Translate {
  (key: MessageKey, vars?: Vars): string;
  (key: PluralKey, vars: CountVars): string;
}
export type Catalogue = Record<CatalogueKey, string>;

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

const pluralRules = new Map<string, Intl.PluralRules>();
/** The language's plural rules for numbers shown with `digits` decimals ('1.0 claps'). */
const rulesOf = (lang: UiLang, digits: number): Intl.PluralRules => {
  const key = `${lang}:${digits}`;
  let rules = pluralRules.get(key);
  if (!rules) {
    rules = new Intl.PluralRules(lang, { minimumFractionDigits: digits });
    pluralRules.set(key, rules);
  }
  return rules;
};

/**
 * The text of a message for `vars`: a counted message is stored as one text per plural form of
 * the language (`key#one`, `key#other`), and the count's form is chosen, `#other` when the
 * language has no text of its own for that form. The count is `count`, else `n`; decimals shown
 * in `n` ('4.0') count too, as they do in speech.
 */
const textOf = (lang: UiLang, key: MessageKey | PluralKey, vars?: Vars): string => {
  const texts = catalogue(lang) as Record<string, string>;
  const other = texts[`${key}#other`];
  if (other === undefined) return texts[key]!;
  const count = Number(vars?.count ?? vars?.n);
  const digits = typeof vars?.n === 'string' ? (/^\d+\.(\d+)$/.exec(vars.n)?.[1]?.length ?? 0) : 0;
  return texts[`${key}#${rulesOf(lang, digits).select(count)}`] ?? other;
};

export const translator = (lang: UiLang): Translate =>
  ((key: MessageKey | PluralKey, vars?: Vars) =>
    format(textOf(lang, key, vars), vars)) as Translate;

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
