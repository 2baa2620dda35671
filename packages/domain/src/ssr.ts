/** What the server hands the web app to render a public page and then hydrate it. */
export interface ClientConfig {
  imagesHost: string;
  publicUrl: string;
}

/** Data prefetched on the server, keyed by the API path (with query) the client would call. */
export interface BootData {
  config: ClientConfig;
  /** API path -> the `object` of a successful answer of that path. */
  data: Record<string, unknown>;
  /** HTTP status the page should answer with (404 for a missing story). */
  status?: number;
  /** The UI language the page was rendered in. */
  uiLang: UiLang;
  /**
   * Texts that `data` holds more than once (a story's title and description in the list, in
   * trending and in the members' shelf), each written once here; see packBootData.
   */
  texts?: string[];
}

/** Marks a string in packed boot data: `MARK` + index is a text, `MARK` + `MARK` escapes one. */
const MARK = '\u0001';
/** Shorter texts cost less than a reference to them. */
const MIN_SHARED_LENGTH = 12;

const mapStrings = (value: unknown, fn: (text: string) => string): unknown => {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
};

/**
 * Boot data with every text that `data` repeats written once in `texts`: the home page's lists
 * share their stories, so their titles and descriptions would otherwise travel two or three
 * times. Lossless: unpackBootData gives back the same data.
 */
export function packBootData(boot: BootData): BootData {
  const counts = new Map<string, number>();
  mapStrings(boot.data, (text) => {
    if (text.length >= MIN_SHARED_LENGTH) counts.set(text, (counts.get(text) ?? 0) + 1);
    return text;
  });
  let marked = false;
  mapStrings(boot.data, (text) => {
    marked ||= text.startsWith(MARK);
    return text;
  });
  const texts = [...counts].filter(([, n]) => n > 1).map(([text]) => text);
  if (texts.length === 0 && !marked) return boot;
  const index = new Map(texts.map((text, i) => [text, i]));
  const data = mapStrings(boot.data, (text) => {
    const at = index.get(text);
    if (at !== undefined) return `${MARK}${at}`;
    return text.startsWith(MARK) ? MARK + text : text;
  }) as BootData['data'];
  return { ...boot, data, texts };
}

/** The boot data packBootData packed, as it was. */
export function unpackBootData(boot: BootData): BootData {
  if (!boot.texts) return boot;
  const texts = boot.texts;
  const data = mapStrings(boot.data, (text) => {
    if (!text.startsWith(MARK)) return text;
    if (text.startsWith(MARK, 1)) return text.slice(1);
    return texts[Number(text.slice(1))] ?? '';
  }) as BootData['data'];
  const unpacked: BootData = { ...boot, data };
  delete unpacked.texts;
  return unpacked;
}

/**
 * The id of the page's boot data: a `<script type="application/json">` data block, which never
 * runs (the Content-Security-Policy allows no inline script); the browser JSON.parses its text.
 */
export const BOOT_DATA_ID = 'kathamala-boot';

/** UI language: English or Sinhala; remembered in a `lang` cookie so the server renders it. */
export type UiLang = 'en' | 'si';
export const UI_LANG_COOKIE = 'lang';
