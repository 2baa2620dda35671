import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { assertSafeKey, type ObjectStorage } from './types.ts';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.webm': 'audio/webm',
};

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** Files on local disk under DATA_DIR/objects: the default store. */
export function localStorage(root: string): ObjectStorage {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const tmp = `${target}.${process.pid}.${randomUUID()}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, target);
    },
    async get(key) {
      try {
        const body = await fs.readFile(file(key));
        return { body, contentType: TYPES[path.extname(key)] ?? 'application/octet-stream' };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async has(key) {
      return fs.access(file(key)).then(
        () => true,
        () => false,
      );
    },
    async putFile(key, filePath) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${randomUUID()}.tmp`;
      await fs.copyFile(filePath, tmp);
      await fs.rename(tmp, target);
    },
    async read(key, range) {
      // Opened before it is handed out, so a missing file is null here, not a stream error later.
      const handle = await fs.open(file(key), 'r').catch((e: unknown) => {
        if (isMissing(e)) return null;
        throw e;
      });
      if (!handle) return null;
      return createReadStream('', { fd: handle, ...(range ?? {}) });
    },
    async delete(key) {
      await fs.rm(file(key), { force: true });
    },
  };
}

/** Files in memory, for tests that run without a data directory. */
export function memoryStorage(): ObjectStorage {
  const files = new Map<string, { body: Buffer; contentType: string }>();
  return {
    async put(key, body, contentType) {
      assertSafeKey(key);
      files.set(key, { body, contentType });
    },
    get: async (key) => files.get(key) ?? null,
    has: async (key) => files.has(key),
    async putFile(key, filePath, contentType) {
      assertSafeKey(key);
      files.set(key, { body: await fs.readFile(filePath), contentType });
    },
    async read(key, range) {
      const found = files.get(key);
      if (!found) return null;
      const body = range ? found.body.subarray(range.start, range.end + 1) : found.body;
      return Readable.from([body]);
    },
    delete: async (key) => void files.delete(key),
  };
}
