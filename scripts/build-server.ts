/**
 * npm run build:server: compiles the server to apps/server/dist/main.js, which runs on plain
 * Node with production dependencies only (no tsx, no TypeScript).
 *
 * - Our code and packages/domain (whose package exports TypeScript source) are bundled into one
 *   ES module with a source map; every other package stays external and loads from
 *   node_modules at run time (sharp and PGlite carry native or WebAssembly files, pg-boss and
 *   drizzle read their own files).
 * - Files the server reads beside its source (SQL migrations and their journal, the demo
 *   covers) are copied into dist/ at the same place relative to main.js as they sit relative
 *   to src/, and `import.meta.dirname` in each bundled module is rewritten to that module's
 *   mirrored directory. So `path.join(import.meta.dirname, 'migrations')` in src/db/client.ts
 *   finds dist/db/migrations, and src/config.ts (three levels below the repository, as
 *   dist/main.js is) still finds the repository root.
 * - Every package the bundle imports must be a dependency of apps/server or packages/domain,
 *   or the build fails: `npm ci --omit=dev` would not install it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'apps/server');
const srcDir = path.join(serverDir, 'src');
// `--out DIR` builds into another copy of the repository's apps/server/dist (the production
// test builds straight into its temporary copy); main.js must sit three levels below the root.
const outArg = process.argv.indexOf('--out');
const outDir = path.resolve(
  outArg > 0 && process.argv[outArg + 1] ? process.argv[outArg + 1]! : path.join(serverDir, 'dist'),
);

const readJson = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
/** Packages `npm ci --omit=dev` installs for the server: its own and the bundled domain's. */
const runtimePackages = new Set([
  ...Object.keys(readJson('apps/server/package.json').dependencies ?? {}),
  ...Object.keys(readJson('packages/domain/package.json').dependencies ?? {}),
]);
const builtins = new Set(builtinModules);

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Bare imports stay external, except our own workspace packages, which are bundled. */
const externals: Plugin = {
  name: 'kathamala-externals',
  setup(b) {
    const missing = new Set<string>();
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@kathamala/')) return undefined;
      const name = packageName(args.path);
      if (!args.path.startsWith('node:') && !builtins.has(name) && !runtimePackages.has(name))
        missing.add(name);
      return { path: args.path, external: true };
    });
    b.onEnd((result) => {
      for (const name of missing)
        result.errors.push({
          id: '',
          pluginName: 'kathamala-externals',
          text: `'${name}' is imported by the server but is not in the dependencies of apps/server or packages/domain, so a production install (npm ci --omit=dev) would not have it.`,
          location: null,
          notes: [],
          detail: undefined,
        });
    });
  },
};

/** Points `import.meta.dirname` (and `filename`) of each module at its mirror in dist/. */
const mirroredDirname: Plugin = {
  name: 'kathamala-dirname',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      if (!/import\.meta\.(dirname|filename|url)/.test(source)) return undefined;
      const relDir = path.relative(srcDir, path.dirname(args.path));
      if (relDir.startsWith('..') || /import\.meta\.url/.test(source))
        return {
          errors: [
            {
              text: `${path.relative(root, args.path)} uses import.meta.url, or import.meta.dirname outside apps/server/src: the server build cannot place what it reads; use import.meta.dirname under apps/server/src.`,
            },
          ],
        };
      const dir = relDir ? `(import.meta.dirname + ${JSON.stringify('/' + relDir)})` : null;
      const contents = dir
        ? source
            .replace(/import\.meta\.dirname/g, dir)
            .replace(
              /import\.meta\.filename/g,
              `(${dir} + ${JSON.stringify('/' + path.basename(args.path))})`,
            )
        : source;
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/** Copies every file under src/ that is not code or a test (SQL, journal, PNGs) into dist/. */
function copyAssets(from: string, to: string): number {
  let n = 0;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      if (source === path.join(srcDir, 'test')) continue;
      n += copyAssets(source, path.join(to, entry.name));
    } else if (!/\.(ts|tsx)$/.test(entry.name)) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, path.join(to, entry.name));
      n++;
    }
  }
  return n;
}

const started = Date.now();
fs.rmSync(outDir, { recursive: true, force: true });
/** One entry point bundled the way every server program is. */
const bundle = (entry: string, out: string) =>
  build({
    absWorkingDir: root,
    entryPoints: [path.join(srcDir, entry)],
    outfile: path.join(outDir, out),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    // Keeps function and class names in stack traces and logs.
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    plugins: [externals, mirroredDirname],
  });
const result = await bundle('main.ts', 'main.js');
// Key rotation and roles run where the server runs, without tsx:
// `node apps/server/dist/keys-rotate.js`, `node apps/server/dist/role.js --email ... --role ...`.
await bundle('keys-rotate.ts', 'keys-rotate.js');
await bundle('role.ts', 'role.js');
const assets = copyAssets(srcDir, outDir);
const size = result.metafile.outputs[path.relative(root, path.join(outDir, 'main.js'))]?.bytes;
console.log(
  `build:server: ${path.relative(root, path.join(outDir, 'main.js'))} (${Math.round((size ?? 0) / 1024)} KiB, ` +
    `${Object.keys(result.metafile.inputs).length} modules) and ${assets} files beside it ` +
    `in ${Date.now() - started} ms`,
);
