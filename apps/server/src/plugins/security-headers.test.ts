import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths, BOOT_DATA_ID, coverUrl, type BootData } from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../test/helpers.ts';
import { composePage, prepareTemplate } from '../modules/pages/ssr.ts';
import { cspDirectives } from './security-headers.ts';

// The page and static-file checks need the built web app (npm test builds it first; WEB_DIST
// points elsewhere).
let t: TestApp;
/** The hashes of what a page carries inline (its stylesheet, its pre-paint script). */
let inline: { styles: string[]; scripts: string[] };
beforeAll(async () => {
  t = await createTestApp();
  inline = inlineOf((await page('/')).body);
});
afterAll(() => t.close());

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The inline <style> and executable <script> texts of a page, as CSP hashes. */
const inlineOf = (html: string) => ({
  styles: [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]!)),
  scripts: scriptsOf(html)
    .filter((s) => !/\ssrc=|\stype="application\//.test(s.attrs))
    .map((s) => sha256(s.text)),
});

const csp = (res: LightMyRequestResponse) => {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
};

/** The headers every answer carries, whatever it is. */
const expectSecurityHeaders = (res: LightMyRequestResponse) => {
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  // Beyond our files: exactly what the pages carry inline, by hash.
  expect(policy.get('script-src')).toEqual(["'self'", ...inline.scripts]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('style-src')).toEqual(["'self'", ...inline.styles]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(policy.get('font-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('worker-src')).toEqual(["'self'"]);
  expect(policy.get('manifest-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.has('upgrade-insecure-requests')).toBe(false);
  for (const values of policy.values()) {
    expect(values).not.toContain("'unsafe-eval'");
  }
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
  // Served over http here: no HSTS.
  expect(res.headers['strict-transport-security']).toBeUndefined();
  expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
};

const page = (url: string) => t.app.inject({ url, headers: { accept: 'text/html' } });

/** Every <script> in the HTML, with its attributes and text. */
const scriptsOf = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attrs: m[1]!,
    text: m[2]!,
  }));

describe('security headers', () => {
  it('are on an API answer, and on errors: 404, 401, 400', async () => {
    const ok = await t.app.inject(apiPaths.listV2());
    expect(ok.statusCode).toBe(200);
    expectSecurityHeaders(ok);

    const missing = await t.app.inject('/api/v1/no/such/call');
    expect(missing.statusCode).toBe(404);
    expectSecurityHeaders(missing);

    const refused = await t.app.inject({ url: apiPaths.listV2(), headers: bearer('forged') });
    expect(refused.statusCode).toBe(401);
    expectSecurityHeaders(refused);

    const invalid = await t.app.inject({
      method: 'POST',
      url: apiPaths.login(),
      payload: { email: 1 },
    });
    expect(invalid.statusCode).toBe(400);
    expectSecurityHeaders(invalid);
  });

  it('are on a rendered page and the not-found page, whose one inline script is /prepaint.js', async () => {
    const prepaint = (await t.app.inject('/prepaint.js')).body;
    for (const url of ['/', '/no-such-page']) {
      const res = await page(url);
      expect(res.headers['content-type']).toContain('text/html');
      expectSecurityHeaders(res);
      const scripts = scriptsOf(res.body);
      const inlineScripts = scripts.filter(
        (s) => !/\ssrc=|\stype="application\/(ld\+)?json"/.test(s.attrs),
      );
      // Before paint: the reader mark and reading comfort, then the app once the page is
      // painted; the text is the file's, exactly, so its hash is the one the policy allows.
      expect(inlineScripts).toHaveLength(1);
      expect(inlineScripts[0]!.text).toBe(prepaint);
      expect(inlineScripts[0]!.attrs).toMatch(/^ data-app="\/assets\/[^"]+\.js" data-preload="/);
      for (const { attrs, text } of scripts) {
        if (/\ssrc="\/[^"]+"/.test(attrs)) expect(text.trim()).toBe('');
      }
      // The app's scripts are not in the markup: the pre-paint script adds them after paint.
      expect(res.body).not.toMatch(/<script type="module"|rel="modulepreload"/);
      // The stylesheet is inline, not one more request before the first paint.
      expect(res.body).not.toMatch(/<link rel="stylesheet"/);
      expect(res.body).toMatch(/<style>[^<]{1000,}<\/style>/);
      // No inline handlers or javascript: addresses in the markup either.
      expect(res.body).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
      expect(res.body).not.toMatch(/(href|src|action)\s*=\s*["']?\s*javascript:/i);
    }
    expect(inline.scripts).toEqual([sha256(prepaint)]);
    // The first load's stylesheets (the app's, and the entry's few lines), each by its hash.
    expect(inline.styles.length).toBeGreaterThanOrEqual(1);
  });

  it("has the page's language strings fetched with the app's first chunks", async () => {
    const en = scriptsOf((await page('/')).body).find((s) => s.attrs.includes('data-preload'))!;
    const si = scriptsOf(
      (await t.app.inject({ url: '/', headers: { accept: 'text/html', cookie: 'lang=si' } })).body,
    ).find((s) => s.attrs.includes('data-preload'))!;
    const first = (attrs: string) => /data-preload="([^" ]+)/.exec(attrs)![1]!;
    expect(first(en.attrs)).toMatch(/^\/assets\/en-[^/]+\.js$/);
    expect(first(si.attrs)).toMatch(/^\/assets\/si-[^/]+\.js$/);
  });

  it('carries the boot data as a JSON data block the client parses', async () => {
    const res = await page('/');
    const block = scriptsOf(res.body).filter((s) => s.attrs.includes(`id="${BOOT_DATA_ID}"`));
    expect(block).toHaveLength(1);
    expect(block[0]!.attrs).toContain('type="application/json"');
    const boot = JSON.parse(block[0]!.text) as BootData;
    expect(boot.uiLang).toBe('en');
    expect(boot.config.publicUrl).toBe('http://kathamala.test');
    expect(Object.keys(boot.data)).toContain(apiPaths.listV2());
  });

  it('are on static files; /prepaint.js is kept an hour', async () => {
    const res = await t.app.inject('/prepaint.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expectSecurityHeaders(res);
    expect(res.body).toContain("'kathamala.comfort'");

    const favicon = await t.app.inject('/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expectSecurityHeaders(favicon);
  });

  it('let covers be shown by other origins (an images host)', async () => {
    const list = (await t.app.inject(apiPaths.listV2())).json().object.stories as {
      storyId: number;
    }[];
    const res = await t.app.inject(coverUrl('/images', list[0]!.storyId));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(csp(res).get('default-src')).toEqual(["'self'"]);
    // Everything else stays same-origin.
    expect((await t.app.inject(apiPaths.listV2())).headers['cross-origin-resource-policy']).toBe(
      'same-origin',
    );
  });

  it('leave the API docs working: the same policy plus the hash of their logo style', async () => {
    const res = await t.app.inject('/api/docs');
    expect(res.statusCode).toBe(200);
    const policy = csp(res);
    expect(policy.get('script-src')).toEqual(["'self'", ...inline.scripts]);
    expect(policy.get('style-src')).toEqual([
      "'self'",
      "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
      ...inline.styles,
    ]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(scriptsOf(res.body).every((s) => s.attrs.includes('src='))).toBe(true);
  });
});

describe('over HTTPS', () => {
  it('sends HSTS and upgrades insecure requests', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://kathamala.lk', DEMO_SEED: '0' });
    try {
      const res = await https.app.inject(apiPaths.listV2());
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(csp(res).has('upgrade-insecure-requests')).toBe(true);
    } finally {
      await https.close();
    }
  });
});

describe('the policy', () => {
  it('allows covers from an images host on another origin, and only that origin', () => {
    const other = cspDirectives({
      publicUrl: 'https://kathamala.lk',
      imagesHost: 'https://img.example.net/covers',
    });
    expect(other['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://img.example.net']);
    const same = cspDirectives({
      publicUrl: 'https://kathamala.lk',
      imagesHost: 'https://kathamala.lk/images',
    });
    expect(same['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });
});

describe('composePage', () => {
  it('keeps typed text inert: it cannot close the data block, and $-patterns stay as typed', () => {
    const template =
      '<html lang="en"><head><!--app-head--></head><body><div id="root"><!--app-html--></div></body></html>';
    const typed = `</script><script>alert(1)</script><!-- $' $& $\` & > \u2028`;
    const boot: BootData = {
      config: { imagesHost: '/images', publicUrl: 'http://x' },
      data: { '/api/v1/x': { title: typed } },
      uiLang: 'si',
    };
    const html = composePage(template, boot, { head: '<title>t</title>', html: "<p>$'</p>" });
    const scripts = scriptsOf(html);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.attrs).toBe(` type="application/json" id="${BOOT_DATA_ID}"`);
    expect(scripts[0]!.text).not.toMatch(/[<>&]/);
    expect(JSON.parse(scripts[0]!.text)).toEqual(boot);
    expect(html).toContain('<div id="root"><p>$\'</p></div>');
    expect(html).toMatch(/^<html lang="si">/);
  });

  const built = [
    '<html lang="en"><head>',
    '<script src="/prepaint.js"></script>',
    '<!--app-head-->',
    '<script type="module" crossorigin src="/assets/index-A.js"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/a-B.js">',
    '<link rel="modulepreload" crossorigin href="/assets/b-C.js">',
    '<link rel="stylesheet" crossorigin href="/assets/style-D.css">',
    '</head><body><div id="root"><!--app-html--></div></body></html>',
  ].join('\n');
  const assets = {
    styles: [
      { tag: '<link rel="stylesheet" crossorigin href="/assets/style-D.css">', text: 'p{}' },
    ],
    prepaint: { tag: '<script src="/prepaint.js"></script>', text: 'run()' },
  };
  const boot: BootData = {
    config: { imagesHost: '/images', publicUrl: 'http://x' },
    data: {},
    uiLang: 'si',
  };

  it('sends the stylesheet and pre-paint script inline and hands the app to the latter', () => {
    const template = prepareTemplate(built, assets);
    expect(template).not.toMatch(/<link|type="module"/);
    expect(template).toContain('<style>p{}</style>');
    expect(template).toContain(
      '<script data-app="/assets/index-A.js" data-preload="/assets/a-B.js /assets/b-C.js">run()</script>',
    );
    // The page's language strings go first in the list.
    const html = composePage(template, boot, { head: '', html: '' }, { si: '/assets/si-E.js' });
    expect(html).toContain('data-preload="/assets/si-E.js /assets/a-B.js /assets/b-C.js"');
    expect(html).not.toContain('modulepreload');
  });

  it('keeps the script tags when the pre-paint script is not inline', () => {
    const template = prepareTemplate(built, { styles: [], prepaint: null });
    expect(template).toBe(built);
    const html = composePage(template, boot, { head: '', html: '' }, { si: '/assets/si-E.js' });
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/si-E.js">');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-A.js">');
  });
});
