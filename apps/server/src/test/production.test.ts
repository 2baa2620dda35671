/**
 * A production install works: the repository is copied (git ls-files, as a fresh clone has it)
 * to a temporary directory outside the repository, the server is built into the copy, the web
 * build is copied beside it, `npm ci --omit=dev` installs only run-time packages, and
 * `node apps/server/dist/main.js` serves health, a story list, pages and a cover, then exits
 * cleanly on SIGTERM. The same steps as the Dockerfile, without Docker.
 *
 * The copy lives under the system temp directory, never under the repository: Node would
 * otherwise find a missing package in the repository's own node_modules and the test would
 * pass on an install that fails for real.
 *
 * Slow (a minute or more: npm ci from the npm cache, the demo seed): KATHAMALA_SKIP_PRODUCTION=1
 * skips it when iterating on other server tests. On the PostgreSQL pass of npm test the copy
 * runs on a fresh PostgreSQL database, else on PGlite in its own DATA_DIR.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, detailsPath } from '@kathamala/domain';
import { freshPostgres } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const skip = process.env.KATHAMALA_SKIP_PRODUCTION === '1';

/** Tools that exist only to build or test: a production install must not have them. */
const DEV_ONLY = ['tsx', 'typescript', 'vite', 'esbuild', 'vitest', 'eslint', '@playwright/test'];

const freePort = async () => {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
};

/** Copies the files git tracks (as they are in the working tree) from the repository to `to`. */
function copyTrackedFiles(to: string) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(from, path.join(to, file));
  }
  return files.length;
}

/** Runs a command without blocking the test worker (npm ci takes a minute). */
const run = (cmd: string, args: string[], cwd: string) =>
  promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });

describe.skipIf(skip)(
  'production install (npm ci --omit=dev, node apps/server/dist/main.js)',
  () => {
    let copy: string;
    let dataDir: string;
    let server: ChildProcess | null = null;
    let output = '';
    let base = '';
    let dropDatabase: (() => Promise<void>) | null = null;

    beforeAll(async () => {
      copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-production-'));
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-production-data-'));
      copyTrackedFiles(copy);
      // The server is built from the repository's sources straight into the copy.
      await run(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/build-server.ts',
          '--out',
          path.join(copy, 'apps/server/dist'),
        ],
        ROOT,
      );
      // npm test builds the web app first; a bare vitest run builds it here when missing.
      const webDist = path.join(ROOT, 'apps/web/dist');
      if (!fs.existsSync(path.join(webDist, 'server', 'entry-server.js')))
        await run('npm', ['run', 'build', '-w', 'apps/web'], ROOT);
      fs.cpSync(webDist, path.join(copy, 'apps/web/dist'), { recursive: true });
      await run(
        'npm',
        ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
        copy,
      );
      // The Docker image has manifests, node_modules and the two builds, no sources: neither
      // may the copy, so nothing at run time can lean on a .ts file or a script.
      for (const dir of ['apps/server/src', 'apps/web/src', 'packages/domain/src', 'scripts'])
        fs.rmSync(path.join(copy, dir), { recursive: true, force: true });
    }, 600_000);

    afterAll(async () => {
      if (server && server.exitCode === null) server.kill('SIGKILL');
      await dropDatabase?.();
      fs.rmSync(copy, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('installs no build or test tools', () => {
      for (const name of DEV_ONLY)
        expect(fs.existsSync(path.join(copy, 'node_modules', name)), name).toBe(false);
      expect(fs.existsSync(path.join(copy, 'apps/server/dist/main.js'))).toBe(true);
    });

    it('starts, serves the API, pages and covers, and exits cleanly on SIGTERM', async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      let databaseUrl: string | null = null;
      if (process.env.DATABASE_URL) {
        const db = await freshPostgres(process.env.DATABASE_URL);
        databaseUrl = db.url;
        dropDatabase = db.drop;
      }
      // Only what a deployment sets: nothing of the test runner's environment leaks in.
      server = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
        cwd: copy,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          // `npm start`'s demo: the carrier simulator plays the carrier.
          CARRIER_SIMULATOR: '1',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DEMO_SEED: '1',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      server.stderr!.on('data', (d: Buffer) => (output += d.toString()));

      const deadline = Date.now() + 240_000;
      let health: Response | null = null;
      while (Date.now() < deadline && server.exitCode === null) {
        health = await fetch(`${base}/healthz`).catch(() => null);
        if (health?.status === 200) break;
        await health?.body?.cancel();
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(health?.status, `the server did not become healthy:\n${output.slice(-3000)}`).toBe(
        200,
      );
      expect(await health!.json()).toEqual({ code: 0, status: 'ok' });
      expect(output).toContain(`Kathamala is running at ${base}`);

      const list = await fetch(`${base}${apiPaths.listV2()}`);
      expect(list.status).toBe(200);
      const body = (await list.json()) as {
        code: number;
        object: { stories: { storyId: number; title: string }[] };
      };
      expect(body.code).toBe(0);
      expect(body.object.stories.length).toBeGreaterThan(0);
      const story = body.object.stories[0]!;
      // Asked again, the list is answered from memory, and logged too.
      const again = await fetch(`${base}${apiPaths.listV2()}`);
      expect(again.status).toBe(200);
      await again.text();

      // Server-rendered pages: the SSR bundle loads React from the production install.
      const home = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toMatch(/text\/html/);
      expect(await home.text()).toContain(detailsPath(story.storyId));
      const details = await fetch(`${base}${detailsPath(story.storyId)}`, {
        headers: { accept: 'text/html' },
      });
      expect(details.status).toBe(200);
      expect(await details.text()).toContain(`<link rel="canonical"`);

      // The demo covers are read from beside the compiled code and drawn through sharp.
      const cover = await fetch(`${base}/images/story_cover_${story.storyId}.png`);
      expect(cover.status).toBe(200);
      expect(cover.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await cover.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      // Built client files and the API browser (static files inside node_modules).
      const html = await (await fetch(`${base}/`, { headers: { accept: 'text/html' } })).text();
      // The app's entry is named on the inline pre-paint script, which loads it after paint.
      const script = /data-app="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeTruthy();
      // Every body is read to the end: an unread one holds its connection open, and the
      // drain below waits for open requests.
      const asset = await fetch(`${base}${script}`);
      expect(asset.status).toBe(200);
      expect((await asset.text()).length).toBeGreaterThan(1000);
      const docs = await fetch(`${base}/api/docs/`);
      expect(docs.status).toBe(200);
      await docs.text();

      // SIGTERM drains: requests in flight and jobs (the seed's roll-up may still run) finish
      // first, bounded by SHUTDOWN_TIMEOUT_SECONDS (25 s by default).
      const stopping = Date.now();
      server.kill('SIGTERM');
      const [code] = (await Promise.race([
        once(server, 'exit'),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error(`no exit within 60 s of SIGTERM:\n${output.slice(-2000)}`)),
            60_000,
          ),
        ),
      ])) as [number | null];
      console.log(`production install: exited ${Date.now() - stopping} ms after SIGTERM`);
      expect(code, output.slice(-2000)).toBe(0);
      expect(output).not.toMatch(/"level":(50|60)/);
      // One line per request, cached or not, all written out by the drain.
      const listLines = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; url?: string; status?: number })
        .filter((line) => line.msg === 'request' && line.url === apiPaths.listV2());
      expect(listLines.map((line) => line.status)).toEqual([200, 200]);
    }, 300_000);
  },
);
