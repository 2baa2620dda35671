import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localStorage } from './local.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kathamala-local-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the local disk store', () => {
  it('keeps the same key written twice at once (two uploads of the same picture)', async () => {
    const store = localStorage(root);
    const body = Buffer.from('the same bytes');
    await Promise.all([
      store.put('pictures/a.webp', body, 'image/webp'),
      store.put('pictures/a.webp', body, 'image/webp'),
    ]);
    expect((await store.get('pictures/a.webp'))?.body.equals(body)).toBe(true);
    // No half-written file is left beside it.
    expect(fs.readdirSync(path.join(root, 'pictures'))).toEqual(['a.webp']);
  });
});
