import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BootData } from '@kathamala/domain';
import { composePage, pageStyles, readManifest } from './ssr.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A client build folder holding only the given Vite manifest. */
const buildWith = (manifest: object) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-manifest-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
};

describe("lazy pages' own stylesheets", () => {
  it("finds each lazy page's CSS and its imports' beyond what the first load carries", () => {
    const dir = buildWith({
      'index.html': {
        file: 'assets/index-A.js',
        css: ['assets/index-A.css'],
        imports: ['_app.js'],
      },
      '_app.js': { file: 'assets/app-B.js', css: ['assets/app-B.css'] },
      '_editor.js': {
        file: 'assets/editor-C.js',
        css: ['assets/editor-C.css'],
        imports: ['_app.js'],
      },
      'src/pages/PublishPage.tsx': {
        file: 'assets/PublishPage-D.js',
        css: ['assets/PublishPage-D.css'],
        imports: ['_app.js', '_editor.js'],
        isDynamicEntry: true,
      },
      'src/pages/SearchPage.tsx': {
        file: 'assets/SearchPage-E.js',
        imports: ['_app.js'],
        isDynamicEntry: true,
      },
    });
    expect(pageStyles(readManifest(dir))).toEqual({
      'src/pages/PublishPage.tsx': ['/assets/PublishPage-D.css', '/assets/editor-C.css'],
    });
  });

  it('finds none without a manifest', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-manifest-'));
    dirs.push(dir);
    expect(pageStyles(readManifest(dir))).toEqual({});
  });

  it("links a rendered page's own stylesheets from its head", () => {
    const boot: BootData = {
      config: { imagesHost: '/images', publicUrl: 'http://x' },
      data: {},
      uiLang: 'en',
    };
    const html = composePage(
      '<html lang="en"><head><!--app-head--></head><body><!--app-html--></body></html>',
      boot,
      { head: '<title>t</title>', html: '<p>x</p>' },
      {},
      ['/assets/AccountPage-F.css'],
    );
    expect(html).toMatch(
      /<head><title>t<\/title><link rel="stylesheet" href="\/assets\/AccountPage-F.css"><script type="application\/json"/,
    );
  });
});
