import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BOOT_DATA_ID, type BootData, type UiLang } from '@kathamala/domain';

export type RenderFn = (
  url: string,
  boot: BootData,
) => Promise<{
  status: number;
  head: string;
  html: string;
  /** The lazy page's module as the manifest names it (`src/pages/AccountPage.tsx`), if any. */
  modules?: string[];
}>;

export interface WebBuild {
  template: string;
  render: RenderFn;
  /** Each UI language's strings chunk (`/assets/si-….js`), preloaded by the pages in that language. */
  catalogues?: Partial<Record<UiLang, string>>;
  /** Each lazy page's own stylesheets (`/assets/AccountPage-….css`), by its module. */
  pageStyles?: Record<string, string[]>;
}

/** A chunk in Vite's `.vite/manifest.json`. */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isDynamicEntry?: boolean;
}

type Manifest = Record<string, ManifestChunk>;

/** The build's manifest, or none when it has no manifest. */
export const readManifest = (clientDir: string): Manifest => {
  const file = path.join(clientDir, '.vite', 'manifest.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : {};
};

/**
 * The stylesheets of each lazily loaded module beyond the first load's (which pages carry
 * inline): its chunk's and those of the chunks it imports. Each page's styles are built apart, so
 * the landing pages do not carry the publishing workspace's or the statistics' CSS inline; a page
 * rendered on the server links its own, so it is styled at its first paint, before its script.
 */
export function pageStyles(manifest: Manifest): Record<string, string[]> {
  const firstLoad = new Set<string>();
  const cssOf = (key: string, into: Set<string>, seen = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const css of chunk.css ?? []) into.add(css);
    for (const imported of chunk.imports ?? []) cssOf(imported, into, seen);
  };
  cssOf('index.html', firstLoad);
  const found: Record<string, string[]> = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const own = new Set<string>();
    cssOf(key, own);
    const links = [...own].filter((css) => !firstLoad.has(css)).map((css) => `/${css}`);
    if (links.length > 0) found[key] = links;
  }
  return found;
}

/** The UI strings chunks named in the build's manifest. */
function catalogues(manifest: Manifest): Partial<Record<UiLang, string>> {
  const found: Partial<Record<UiLang, string>> = {};
  for (const lang of ['en', 'si'] as const) {
    const chunk = manifest[`src/i18n/${lang}.ts`];
    if (chunk) found[lang] = `/${chunk.file}`;
  }
  return found;
}

/** A stylesheet or script of the build, as pages carry it inline. */
interface InlineAsset {
  /** The tag it replaces in the client template. */
  tag: string;
  text: string;
}

/** What pages carry inline rather than as files of their own. */
export interface InlineAssets {
  styles: InlineAsset[];
  /** /prepaint.js, which must run before the first paint. */
  prepaint: InlineAsset | null;
}

const LINK_STYLESHEET = /<link rel="stylesheet"[^>]*? href="(\/assets\/[^"]+\.css)"[^>]*>/g;
const PREPAINT = '<script src="/prepaint.js"></script>';
const inlineAssetsCache = new Map<string, InlineAssets>();

/**
 * The build's stylesheets and /prepaint.js as named in its client template, read once per build
 * directory. Pages carry them inline: each was a request the first paint waited for (a linked
 * stylesheet, a blocking script), on a slow phone network the largest share of that wait. The
 * Content-Security-Policy allows exactly these texts by hash (inlineHashes); both read them here,
 * so the two cannot disagree.
 */
export function inlineAssets(webDist: string): InlineAssets {
  const cached = inlineAssetsCache.get(webDist);
  if (cached) return cached;
  const clientDir = path.join(webDist, 'client');
  const read = (file: string) =>
    fs.existsSync(path.join(clientDir, file))
      ? fs.readFileSync(path.join(clientDir, file), 'utf8')
      : null;
  const template = read('index.html') ?? '';
  const found: InlineAssets = { styles: [], prepaint: null };
  for (const m of template.matchAll(LINK_STYLESHEET)) {
    const css = read(m[1]!);
    // Text that would end the element early stays a file (a build has no reason to hold it).
    if (css !== null && !/<\/style/i.test(css)) found.styles.push({ tag: m[0], text: css });
  }
  const prepaint = template.includes(PREPAINT) ? read('prepaint.js') : null;
  if (prepaint !== null && !/<\/script/i.test(prepaint)) {
    found.prepaint = { tag: PREPAINT, text: prepaint };
  }
  inlineAssetsCache.set(webDist, found);
  return found;
}

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The CSP source expressions (`'sha256-…'`) of what the build's pages carry inline. */
export function inlineHashes(webDist: string): { styles: string[]; scripts: string[] } {
  const { styles, prepaint } = inlineAssets(webDist);
  return {
    styles: styles.map((s) => sha256(s.text)),
    scripts: prepaint ? [sha256(prepaint.text)] : [],
  };
}

const MODULE_ENTRY = /<script type="module"[^>]*? src="([^"]+)"[^>]*><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*? href="([^"]+)"[^>]*>\s*/g;

/**
 * The client template as pages are sent: stylesheets and /prepaint.js inline, and the app's
 * scripts handed to the pre-paint script, which fetches them once the first frame is on screen
 * (`data-app`, `data-preload`) rather than from the head, where on a slow network they share the
 * bandwidth the page's text needs and on a fast one run before it is painted. Without the
 * pre-paint script inline the template keeps its script tags.
 */
export function prepareTemplate(template: string, assets: InlineAssets): string {
  let out = template;
  for (const { tag, text } of assets.styles) out = out.replace(tag, () => `<style>${text}</style>`);
  const entry = MODULE_ENTRY.exec(out)?.[1];
  const { prepaint } = assets;
  if (!entry || !prepaint || !out.includes(prepaint.tag)) return out;
  const preload = [...out.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  out = out.replace(MODULE_ENTRY, '').replace(MODULE_PRELOAD, '');
  return out.replace(
    prepaint.tag,
    () =>
      `<script data-app="${entry}" data-preload="${preload.join(' ')}">${prepaint.text}</script>`,
  );
}

/** Loads the built web app (client template + SSR bundle), or null when it was not built. */
export async function loadWebBuild(webDist: string): Promise<WebBuild | null> {
  const templateFile = path.join(webDist, 'client', 'index.html');
  const entry = path.join(webDist, 'server', 'entry-server.js');
  if (!fs.existsSync(templateFile) || !fs.existsSync(entry)) return null;
  const mod = (await import(pathToFileURL(entry).href)) as { render: RenderFn };
  const manifest = readManifest(path.join(webDist, 'client'));
  return {
    template: prepareTemplate(fs.readFileSync(templateFile, 'utf8'), inlineAssets(webDist)),
    render: mod.render,
    catalogues: catalogues(manifest),
    pageStyles: pageStyles(manifest),
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
 * `styles`: the rendered page's own stylesheets (a lazy page's), linked from the head.
 */
export const composePage = (
  template: string,
  boot: BootData,
  rendered: { head: string; html: string },
  catalogues: Partial<Record<UiLang, string>> = {},
  styles: readonly string[] = [],
) => {
  // The page's strings chunk, fetched with the app's other chunks rather than after the entry
  // runs: in the pre-paint script's list when it loads the app, else preloaded from the head.
  const strings = catalogues[boot.uiLang];
  const deferred = template.includes(' data-preload="');
  const links =
    (strings && !deferred ? `<link rel="modulepreload" crossorigin href="${strings}">` : '') +
    styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('');
  // Replacer functions: a replacement string would expand `$'` or `$&` typed in a title.
  let page = template;
  if (strings && deferred)
    page = page.replace(' data-preload="', () => ` data-preload="${strings} `);
  return page
    .replace(/<html lang="[^"]*"/, () => `<html lang="${boot.uiLang}"`)
    .replace(
      '<!--app-head-->',
      () =>
        `${rendered.head}${links}<script type="application/json" id="${BOOT_DATA_ID}">${scriptJson(boot)}</script>`,
    )
    .replace('<!--app-html-->', () => rendered.html);
};
