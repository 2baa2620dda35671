import fs from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, type ObjectStorage } from './types.ts';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
};

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
      const tmp = `${target}.${process.pid}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, target);
    },
    async get(key) {
      try {
        const body = await fs.readFile(file(key));
        return { body, contentType: TYPES[path.extname(key)] ?? 'application/octet-stream' };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async has(key) {
      return fs.access(file(key)).then(
        () => true,
        () => false,
      );
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
  };
}
