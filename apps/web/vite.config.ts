import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Built class names are a short hash of the file and the class (`_k3Xq9a`): they appear on every
 * element of every server-rendered page, so Vite's readable `_cardDescription_6eybk_88` cost the
 * home page about 5 KB. The client and SSR builds hash the same input, so their names agree.
 */
const shortClassName = (name: string, filename: string) =>
  `_${createHash('sha256')
    .update(`${path.relative(here, filename.split('?')[0]!)}:${name}`)
    .digest('base64url')
    .slice(0, 6)}`;

/**
 * The app runs on Preact through preact/compat, in the browser and in the SSR build alike (the
 * markup hydration compares must come from the same runtime): React 19 + react-dom weighed about
 * 62 KB gzipped of the reader's first load, Preact with hooks and compat about 11. The code and
 * its libraries still import `react`; these names point them at compat. The vitest web project
 * (vitest.config.ts) uses these same names, so components are tested on what ships.
 */
export const preactCompat = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * Libraries that import `react`: bundled (SSR build) or inlined (vitest) rather than loaded by
 * Node from node_modules, so the aliases above reach their imports too (an external one would
 * load the real React and render with the wrong runtime).
 */
export const importsReact = [
  'react-router',
  '@tanstack/react-query',
  '@tiptap/react',
  'use-sync-external-store',
];

/**
 * Every function of a first load's script runs while the page hydrates. Left to itself, V8
 * compiles each on its first call, on the main thread, inside hydration's tasks. This comment
 * atop the file (an explicit compile hint, Chrome 136 on; other browsers ignore it) has it compile
 * them all while the file streams in, off the main thread: the home page's longest script task
 * after the first paint went from 14 to 9 ms (docs/decisions.md). Added last, after Vite's own
 * first lines, as the hint counts only at the very top.
 */
const compileHint = (): Plugin => ({
  name: 'kathamala:compile-hint',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      if (this.environment.name !== 'client') return;
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && (file.isEntry || file.name === 'app')) {
          file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        }
      }
    },
  },
});

/**
 * index.html's comments explain it to us, not to a reader's browser: the built page, which every
 * server-rendered page starts from, leaves them out (589 bytes of the home page). The server's two
 * markers stay.
 */
const dropHtmlComments = (): Plugin => ({
  name: 'kathamala:drop-html-comments',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (html) => html.replace(/[ \t]*<!--(?!app-head-->|app-html-->)[\s\S]*?-->\n?/g, ''),
  },
});

/** The module every first load starts from (index.html's script). */
const ENTRY = path.join(here, 'src/entry-client.tsx');

/**
 * One chunk for everything a first load runs: the entry's static imports, however deep. Left to
 * itself the bundler cut them into about 25 chunks shared with the lazy pages; each was a
 * `modulepreload` the page added, a request and a module record, on the first page's main thread
 * just after the paint. A lazy page loads after the entry, so it finds this chunk already there;
 * modules only lazy pages use keep their own chunks.
 */
const firstLoadChunk = () => {
  const reached = new Map<string, boolean>();
  const fromEntry = (
    id: string,
    info: (id: string) => { importers: readonly string[] } | null,
    seen: Set<string>,
  ): boolean => {
    const known = reached.get(id);
    if (known !== undefined) return known;
    if (id === ENTRY) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    const found = (info(id)?.importers ?? []).some((by) => fromEntry(by, info, seen));
    // Only a positive answer is final: a negative one may come from a cycle still being walked.
    if (found) reached.set(id, true);
    return found;
  };
  // The entry module itself stays in the entry chunk (the file index.html names), importing this.
  return (
    id: string,
    ctx: { getModuleInfo: (id: string) => { importers: readonly string[] } | null },
  ) => (id !== ENTRY && fromEntry(id, (m) => ctx.getModuleInfo(m), new Set()) ? 'app' : null);
};

export default defineConfig(({ command, isSsrBuild }) => ({
  // JSX compiles straight to Preact's runtime (no React refresh plugin: under vite dev an edit
  // reloads the page).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact/compat' } },
  plugins: [compileHint(), dropHtmlComments()],
  resolve: { alias: preactCompat },
  build: {
    // The first load's stylesheet (which pages carry inline) holds what the landing pages use;
    // each lazy page's own CSS is a file of its own, linked by the server when it renders that
    // page (styled before any script runs) and loaded with its chunk on the way there. One
    // stylesheet for all was 73 KB inline in every page, 13 of a home page's 23 KB gzipped,
    // about a third of it the publishing workspace's and the statistics'.
    cssCodeSplit: true,
    target: 'es2020',
    // .vite/manifest.json: the server preloads the page's language chunk from it, and
    // scripts/js-budget.ts sums a first load's script from it.
    manifest: true,
    assetsInlineLimit: 2048,
    rolldownOptions: {
      onwarn(warning, warn) {
        // The "use client" atop react-router and TanStack Query means something only to React
        // Server Components; bundling them (as the SSR build now does) drops it harmlessly.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: isSsrBuild ? {} : { codeSplitting: { groups: [{ name: firstLoadChunk() }] } },
      treeshake: {
        // The domain package builds its TypeBox schemas at module level. The browser only needs
        // the types and the rules; marking the builders pure lets unused schemas (and most of
        // TypeBox) drop out of the bundle.
        manualPureFunctions: ['Type', 'Ok'],
      },
    },
  },
  css: {
    modules: {
      localsConvention: 'camelCaseOnly',
      // Readable names while developing.
      ...(command === 'build' ? { generateScopedName: shortClassName } : {}),
    },
  },
  ssr: {
    // The domain package is TypeScript source in the workspace: bundle it into the SSR build.
    noExternal: ['@kathamala/domain', ...importsReact],
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3100',
      '/categories.json': 'http://127.0.0.1:3100',
      '/.well-known': 'http://127.0.0.1:3100',
    },
  },
}));
