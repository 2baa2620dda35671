// The first-load script budget of the reader route (/details/{id}/{n}/), read from the build.
//
// Sums the gzipped size of every JavaScript file a first visit to an episode page loads: the
// entry of index.html and its static imports (the modulepreloads), the episode page's own chunk
// when it is split off, and one language's UI strings (the larger of English and Sinhala, each
// with its imports). Lazy chunks that load later (comments, the editor, other pages) do not
// count. Reads apps/web/dist/client/.vite/manifest.json (WEB_DIST to read another build), prints
// the files and the total, and exits non-zero above JS_BUDGET_KB (default 100) KB gzipped.
// npm test runs it after the build.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = path.resolve(process.env.WEB_DIST || path.join(ROOT, 'apps/web/dist'));
const CLIENT = path.join(WEB_DIST, 'client');
const BUDGET_KB = Number(process.env.JS_BUDGET_KB || 100);
/** The reader route's page module: counted when the build splits it into a chunk of its own. */
const ROUTE_MODULE = 'src/pages/DetailsPage.tsx';
const LANGUAGES = ['src/i18n/en.ts', 'src/i18n/si.ts'];

const manifestFile = path.join(CLIENT, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(
    `js-budget: ${path.relative(ROOT, manifestFile)} is missing: build the web app first.`,
  );
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>;

/** A chunk's key and the keys of everything it imports statically. */
const closure = (key: string, into = new Set<string>()): Set<string> => {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const dep of manifest[key]!.imports ?? []) closure(dep, into);
  return into;
};

const gzipped = new Map<string, number>();
const sizeOf = (key: string) => {
  const file = manifest[key]!.file;
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(path.join(CLIENT, file))).length);
  return gzipped.get(file)!;
};
const jsOnly = (keys: Set<string>) => [...keys].filter((k) => manifest[k]!.file.endsWith('.js'));

const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('index.html'));
if (!entry) {
  console.error('js-budget: the manifest names no index.html entry.');
  process.exit(1);
}
const base = closure(entry);
if (manifest[ROUTE_MODULE]) closure(ROUTE_MODULE, base);

// The page's language: the larger one stands for both.
const languages = LANGUAGES.filter((k) => manifest[k]).map((k) => {
  const extra = jsOnly(closure(k)).filter((c) => !base.has(c));
  return { key: k, extra, bytes: extra.reduce((sum, c) => sum + sizeOf(c), 0) };
});
const language = languages.sort((a, b) => b.bytes - a.bytes)[0];
const counted = [...jsOnly(base), ...(language?.extra ?? [])];

const rows = counted.map((k) => ({ file: manifest[k]!.file, bytes: sizeOf(k) }));
rows.sort((a, b) => b.bytes - a.bytes);
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
const kb = (n: number) => (n / 1024).toFixed(1);

console.log(`First-load JavaScript of the reader route (gzip), ${path.relative(ROOT, CLIENT)}:`);
for (const r of rows) console.log(`  ${kb(r.bytes).padStart(6)} KB  ${r.file}`);
for (const l of languages)
  console.log(
    `  (UI strings ${path.basename(l.key, '.ts')}: ${kb(l.bytes)} KB; the larger is counted)`,
  );
console.log(`  ${kb(total).padStart(6)} KB  total; budget ${BUDGET_KB} KB`);
if (total > BUDGET_KB * 1024) {
  console.error(
    `js-budget: ${kb(total)} KB is over the ${BUDGET_KB} KB budget (${kb(total - BUDGET_KB * 1024)} KB too much).`,
  );
  process.exit(1);
}
