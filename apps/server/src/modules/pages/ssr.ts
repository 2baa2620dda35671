import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BOOT_DATA_ID, type BootData, type UiLang } from '@kathamala/domain';

export type RenderFn = (
  url: string,
  boot: BootData,
) => Promise<{ status: number; head: string; html: string }>;

export interface WebBuild {
  template: string;
  render: RenderFn;
  /** Each UI language's strings chunk (`/assets/si-….js`), preloaded by the pages in that language. */
  catalogues?: Partial<Record<UiLang, string>>;
}

/** The UI strings chunks named in the build's manifest (Vite's `.vite/manifest.json`). */
function readCatalogues(clientDir: string): Partial<Record<UiLang, string>> {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return {};
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { file: string }>;
  const found: Partial<Record<UiLang, string>> = {};
  for (const lang of ['en', 'si'] as const) {
    const chunk = manifest[`src/i18n/${lang}.ts`];
    if (chunk) found[lang] = `/${chunk.file}`;
  }
  return found;
}

/** Loads the built web app (client template + SSR bundle), or null when it was not built. */
export async function loadWebBuild(webDist: string): Promise<WebBuild | null> {
  const templateFile = path.join(webDist, 'client', 'index.html');
  const entry = path.join(webDist, 'server', 'entry-server.js');
  if (!fs.existsSync(templateFile) || !fs.existsSync(entry)) return null;
  const mod = (await import(pathToFileURL(entry).href)) as { render: RenderFn };
  return {
    template: fs.readFileSync(templateFile, 'utf8'),
    render: mod.render,
    catalogues: readCatalogues(path.join(webDist, 'client')),
  };
}

/**
 * JSON that is safe as the text of a <script> element: no `<` can close the element or open a
 * comment, and `>`, `&` and the line separators are escaped as well, so the text stays JSON
 * whatever a story title or comment holds.
 */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Puts rendered head, body and boot data into the template. The boot data is a JSON data block,
 * not a script: the Content-Security-Policy runs no inline script, and the client parses it.
 */
export const composePage = (
  template: string,
  boot: BootData,
  rendered: { head: string; html: string },
  catalogues: Partial<Record<UiLang, string>> = {},
) => {
  // The page's strings chunk, fetched beside the entry script rather than after it.
  const strings = catalogues[boot.uiLang];
  const preload = strings ? `<link rel="modulepreload" crossorigin href="${strings}">` : '';
  // Replacer functions: a replacement string would expand `$'` or `$&` typed in a title.
  return template
    .replace(/<html lang="[^"]*"/, () => `<html lang="${boot.uiLang}"`)
    .replace(
      '<!--app-head-->',
      () =>
        `${rendered.head}${preload}<script type="application/json" id="${BOOT_DATA_ID}">${scriptJson(boot)}</script>`,
    )
    .replace('<!--app-html-->', () => rendered.html);
};
