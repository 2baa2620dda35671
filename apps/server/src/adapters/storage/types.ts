import type { Readable } from 'node:stream';

/** Where uploaded and generated files (covers, audio, community images) live. */
export interface ObjectStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none under that key. */
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  has(key: string): Promise<boolean>;
  /** Stores a file from local disk, streamed: an audio upload is never held in memory whole. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /**
   * The bytes `start` to `end` (inclusive; the whole file without a range) as a stream, or null
   * when there is no such file. The caller checks the range against the size it knows.
   */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | null>;
  /** Removes the file; no file under that key is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are flat names like `covers/story_cover_12.png`; nothing may climb out of the store. */
export const assertSafeKey = (key: string) => {
  if (!/^[a-z0-9_-]+(\/[a-zA-Z0-9_.-]+)*$/.test(key) || key.includes('..'))
    throw new Error(`unsafe storage key: ${key}`);
};
