import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/*
 * `npm ci` on a fresh machine prints no warning a newcomer cannot act on (issue 27): every
 * package that runs an install script is allowed by name, and every package's engines accept
 * the Node the project runs on (Node 24, which npm scripts take from node_modules/.bin).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const manifest = read('package.json') as { allowScripts?: Record<string, boolean> };
const lock = read('package-lock.json') as {
  packages: Record<
    string,
    { hasInstallScript?: boolean; optional?: boolean; engines?: { node?: string } }
  >;
};
const nameOf = (key: string) =>
  key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('installing', () => {
  it('runs on Node 24', () => {
    expect(process.version).toMatch(/^v24\./);
  });

  it('allows by name every install script it runs, so npm names none as not allowed', () => {
    const scripted = Object.entries(lock.packages)
      .filter(([key, p]) => key !== '' && p.hasInstallScript)
      .map(([key]) => nameOf(key));
    const refused = scripted.filter((name) => manifest.allowScripts?.[name] !== true);
    expect(refused).toEqual([]);
  });

  it("installs nothing whose engines refuse the project's Node", () => {
    const refused = Object.entries(lock.packages)
      // npm skips an optional package its engines refuse (another platform's build), silently.
      .filter(([key, p]) => key !== '' && !p.optional && typeof p.engines?.node === 'string')
      .filter(([, p]) => !semver.satisfies(process.version, p.engines!.node!))
      .map(([key, p]) => `${nameOf(key)} wants ${p.engines!.node}`);
    expect(refused).toEqual([]);
  });
});
