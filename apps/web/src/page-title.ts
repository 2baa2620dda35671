import type { Translate } from './i18n/index.tsx';

export const SITE_NAME = 'Kathamala';

/** The browser title of a page: '{page} – Kathamala', or the site title for the home page. */
export const pageTitle = (t: Translate, title?: string): string =>
  title ? `${title} – ${SITE_NAME}` : t('meta.homeTitle');

/** What a page's share tags and search-engine tags say (seo.ts writes them into the head). */
export interface PageMeta {
  title: string;
  description: string;
  /** Path (and query, where it names the content) of the canonical address. */
  canonicalPath: string;
  image?: string;
  type: 'website' | 'article' | 'profile';
  noindex?: boolean;
}
