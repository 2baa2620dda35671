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
}

/** The browser reads boot data from this global, written by the server into the page. */
export const BOOT_GLOBAL = '__KATHAMALA_BOOT__';

/** UI language: English or Sinhala; remembered in a `lang` cookie so the server renders it. */
export type UiLang = 'en' | 'si';
export const UI_LANG_COOKIE = 'lang';
