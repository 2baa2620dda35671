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

/**
 * The id of the page's boot data: a `<script type="application/json">` data block, which never
 * runs (the Content-Security-Policy allows no inline script); the browser JSON.parses its text.
 */
export const BOOT_DATA_ID = 'kathamala-boot';

/** UI language: English or Sinhala; remembered in a `lang` cookie so the server renders it. */
export type UiLang = 'en' | 'si';
export const UI_LANG_COOKIE = 'lang';
