/** Where uploaded and generated files (covers, audio, community images) live. */
export interface ObjectStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none under that key. */
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  has(key: string): Promise<boolean>;
}

/** Keys are flat names like `covers/story_cover_12.png`; nothing may climb out of the store. */
export const assertSafeKey = (key: string) => {
  if (!/^[a-z0-9_-]+(\/[a-zA-Z0-9_.-]+)*$/.test(key) || key.includes('..'))
    throw new Error(`unsafe storage key: ${key}`);
};
