import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    // One stylesheet, linked from index.html: server-rendered pages (including lazy ones) are
    // styled before any script runs, which matters more on 3G than a few KB of unused CSS.
    cssCodeSplit: false,
    target: 'es2020',
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
    modules: { localsConvention: 'camelCaseOnly' },
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
});
