import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BOOT_DATA_ID, type BootData } from '@kathamala/domain';

export type RenderFn = (
  url: string,
  boot: BootData,
) => Promise<{ status: number; head: string; html: string }>;

export interface WebBuild {
  template: string;
  render: RenderFn;
}

/** Loads the built web app (client template + SSR bundle), or null when it was not built. */
export async function loadWebBuild(webDist: string): Promise<WebBuild | null> {
  const templateFile = path.join(webDist, 'client', 'index.html');
  const entry = path.join(webDist, 'server', 'entry-server.js');
  if (!fs.existsSync(templateFile) || !fs.existsSync(entry)) return null;
  const mod = (await import(pathToFileURL(entry).href)) as { render: RenderFn };
  return { template: fs.readFileSync(templateFile, 'utf8'), render: mod.render };
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
) =>
  // Replacer functions: a replacement string would expand `$'` or `$&` typed in a title.
  template
    .replace(/<html lang="[^"]*"/, () => `<html lang="${boot.uiLang}"`)
    .replace(
      '<!--app-head-->',
      () =>
        `${rendered.head}<script type="application/json" id="${BOOT_DATA_ID}">${scriptJson(boot)}</script>`,
    )
    .replace('<!--app-html-->', () => rendered.html);
