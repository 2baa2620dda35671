// npm run lighthouse: Lighthouse (mobile, its default simulated throttling) on the pages people
// land on: home, a story's details and an episode page, plus a static HTML copy of each (the
// same server-rendered text and inline stylesheet, no script) served by the same server, the
// yardstick for first paint and LCP.
//
// 1. starts the real server (NODE_ENV=production, PGlite in a temporary DATA_DIR, DEMO_SEED=1)
//    on a free loopback port, serving a copy of the built web app (WEB_DIST, default
//    apps/web/dist) with the static copies added as /lighthouse-static-{page}.html;
// 2. runs Lighthouse in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) once per page
//    (LIGHTHOUSE_RUNS to take the median of more), and prints the four category scores, FCP, LCP,
//    CLS and total blocking time, and LCP as a ratio to the page's static copy's.
// Results also go to .tmp/lighthouse.json. Not part of npm test: timings are not pass/fail.
//
// Environment: WEB_DIST, CHROME_PATH, LIGHTHOUSE_RUNS (1), LIGHTHOUSE_URL (measure a server
// that is already running instead; no static copies then), LIGHTHOUSE_REPORTS (a directory for
// the full JSON reports), LIGHTHOUSE_PAGES (a comma-separated subset: home,details,episode).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { stopChild } from './stop-child.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
/** Where the full reports go (LIGHTHOUSE_REPORTS=dir), for a closer look at one page. */
const REPORTS_DIR = process.env.LIGHTHOUSE_REPORTS
  ? path.resolve(process.env.LIGHTHOUSE_REPORTS)
  : '';
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const RUNS = Math.max(1, Number.parseInt(process.env.LIGHTHOUSE_RUNS ?? '', 10) || 1);
const WEB_DIST = path.resolve(process.env.WEB_DIST || path.join(ROOT, 'apps/web/dist'));
/** The static copy of a page, as a file of the web build. */
const staticFile = (page: string) => `lighthouse-static-${page}.html`;
const STATIC_PREFIX = 'static copy of ';
/** The pages measured, each with a static copy when the script starts the server. */
const PAGES = ['home', 'details', 'episode'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface PageResult {
  page: string;
  url: string;
  scores: Record<string, number>;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  /** The largest contentful paint's element, as Lighthouse names it. */
  lcpElement: string;
  /** Audits that cost points, by category. */
  missed: string[];
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the server did not answer /api/health in time');
}

/** A page as plain HTML: its text and stylesheet, every script (and script preload) removed. */
const staticCopy = (html: string) =>
  html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');

/** The LCP element's snippet from the audit's details table. */
const lcpElementOf = (details: unknown): string => {
  const text = JSON.stringify(details ?? {});
  const snippet = /"snippet":"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? '';
  return snippet.replace(/\\"/g, '"').slice(0, 160);
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function audit(url: string, port: number): Promise<Omit<PageResult, 'page'>> {
  const runs: Omit<PageResult, 'page'>[] = [];
  for (let i = 0, retries = 0; i < RUNS; i++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    // On a busy machine Chromium now and then loses the trace (NO_NAVSTART, NO_FCP): run again.
    if (lhr.runtimeError && retries < 2) {
      retries++;
      i--;
      continue;
    }
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    // The whole report, for the audits' details (the network requests, the main-thread tasks).
    if (REPORTS_DIR) {
      mkdirSync(REPORTS_DIR, { recursive: true });
      const name = new URL(url).pathname.replace(/[^a-z0-9]+/gi, '_');
      writeFileSync(path.join(REPORTS_DIR, `${name}-${i + 1}.json`), JSON.stringify(lhr));
    }
    const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
    runs.push({
      url,
      scores: Object.fromEntries(
        CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
      ),
      lcpMs: num('largest-contentful-paint'),
      cls: num('cumulative-layout-shift'),
      tbtMs: num('total-blocking-time'),
      fcpMs: num('first-contentful-paint'),
      lcpElement: lcpElementOf(lhr.audits['largest-contentful-paint-element']?.details),
      missed: CATEGORIES.flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c}: ${ref.id} (${lhr.audits[ref.id]?.displayValue ?? 'failed'})`),
      ),
    });
  }
  // The run with the median LCP stands for the page.
  const lcp = median(runs.map((r) => r.lcpMs));
  return runs.find((r) => r.lcpMs === lcp)!;
}

async function main() {
  let server: ChildProcess | null = null;
  let tmp: string | null = null;
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  // The data directory goes only once the server has drained: removed under it, PGlite's
  // shutdown aborts on its missing files.
  const stop = async () => {
    if (chrome) void chrome.kill();
    if (server) await stopChild(server, 30_000);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    void stop().finally(() => process.exit(130));
  });
  try {
    let base = process.env.LIGHTHOUSE_URL?.replace(/\/$/, '');
    if (!base) {
      // Inside the repository: the SSR bundle resolves react from its node_modules.
      mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
      tmp = mkdtempSync(path.join(ROOT, '.tmp', 'lighthouse-'));
      const web = path.join(tmp, 'web');
      cpSync(WEB_DIST, web, { recursive: true });
      // The static file server lists its files at start-up: the copies' files must exist by then
      // (their text is written once the pages can be rendered).
      for (const page of PAGES) writeFileSync(path.join(web, 'client', staticFile(page)), '');
      const port = await freePort();
      base = `http://${HOST}:${port}`;
      server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST,
          DATA_DIR: path.join(tmp, 'data'),
          NODE_ENV: 'production',
          CARRIER_SIMULATOR: '1',
          DEMO_SEED: '1',
          DATABASE_URL: '',
          WEB_DIST: web,
          PUBLIC_URL: base,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      await waitForHealth(base, server);
    }

    const list = (await (await fetch(`${base}/api/v1/story/listV2/`)).json()) as {
      object: { stories: { storyId: number }[] };
    };
    const storyId = list.object.stories[0]?.storyId;
    if (!storyId) throw new Error('the list has no story to measure');
    const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((p) => p.trim());
    const pages = (
      [
        ['home', '/'],
        ['details', `/details/${storyId}/`],
        ['episode', `/details/${storyId}/2/`],
      ] as [string, string][]
    ).filter(([name]) => !only || only.includes(name));
    if (tmp) {
      // Rendered once first, so each copy holds what its page sends; measured right after it.
      for (const [page, p] of [...pages]) {
        const html = await (
          await fetch(`${base}${p}`, { headers: { accept: 'text/html' } })
        ).text();
        writeFileSync(path.join(tmp, 'web', 'client', staticFile(page)), staticCopy(html));
        pages.splice(pages.findIndex(([name]) => name === page) + 1, 0, [
          `${STATIC_PREFIX}${page}`,
          `/${staticFile(page)}`,
        ]);
      }
    }
    // Warm the server's page cache and covers, so a first render is not what gets measured.
    for (const [, p] of pages) await fetch(`${base}${p}`, { headers: { accept: 'text/html' } });

    chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const results: PageResult[] = [];
    for (const [page, p] of pages) {
      // One failed page (Lighthouse loses a trace now and then on a busy machine) is reported,
      // and the others still measured.
      try {
        results.push({ page, ...(await audit(`${base}${p}`, chrome.port)) });
      } catch (e) {
        console.error(`${page}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }

    const staticOf = (r: PageResult) => results.find((s) => s.page === `${STATIC_PREFIX}${r.page}`);
    console.log(
      `\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ''}mobile, simulated throttling; load ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores\n`,
    );
    console.log(
      'page                       perf  a11y  best   seo    FCP ms    LCP ms  CLS     TBT ms  LCP/static',
    );
    for (const r of results) {
      const s = r.scores;
      const copy = staticOf(r);
      const ratio = copy ? (r.lcpMs / copy.lcpMs).toFixed(2) : '-';
      console.log(
        `${r.page.padEnd(26)} ${String(s.performance).padStart(4)}  ${String(s.accessibility).padStart(4)}  ${String(s['best-practices']).padStart(4)}  ${String(s.seo).padStart(4)}  ${r.fcpMs.toFixed(0).padStart(8)}  ${r.lcpMs.toFixed(0).padStart(8)}  ${r.cls.toFixed(3).padEnd(6)}  ${r.tbtMs.toFixed(0).padStart(6)}  ${ratio}`,
      );
    }
    for (const r of results) {
      console.log(`\n${r.page}: LCP element ${r.lcpElement || '(none)'}`);
      for (const m of r.missed) console.log(`  missed ${m}`);
    }
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    writeFileSync(path.join(ROOT, '.tmp', 'lighthouse.json'), JSON.stringify(results, null, 2));
  } finally {
    await stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
