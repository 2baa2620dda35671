import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig(({ command }) => ({
  plugins: [react()],
  build: {
    // One stylesheet, linked from index.html: server-rendered pages (including lazy ones) are
    // styled before any script runs, which matters more on 3G than a few KB of unused CSS.
    cssCodeSplit: false,
    target: 'es2020',
    // .vite/manifest.json: the server preloads the page's language chunk from it, and
    // scripts/js-budget.ts sums a first load's script from it.
    manifest: true,
    assetsInlineLimit: 2048,
    rolldownOptions: {
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
    noExternal: ['@kathamala/domain'],
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3100',
      '/categories.json': 'http://127.0.0.1:3100',
      '/.well-known': 'http://127.0.0.1:3100',
    },
  },
}));
