import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, type AudioBook } from '@kathamala/domain';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

/*
 * The demo's narrated episodes: seeded from the checked-in renditions on a server without
 * ffmpeg, listed on the English and the Sinhala demo story, and streamed.
 */
let t: TestApp;
beforeAll(async () => {
  const was = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
  try {
    t = await createTestApp({ DEMO_SEED: '1' });
  } finally {
    if (was === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = was;
  }
}, 120_000);
afterAll(() => t?.close());

const booksOf = async (title: string): Promise<AudioBook[]> => {
  const [story] = await t.rows<{ id: number }>(
    sql`select id from stories where title = ${title} order by id limit 1`,
  );
  const res = await t.app.inject({ url: apiPaths.preview(story!.id) });
  expect(res.statusCode).toBe(200);
  return res.json().object.audioBooks;
};

describe('the demo seed', () => {
  it('narrates an English and a Sinhala story, playable without ffmpeg', async () => {
    const english = await booksOf('The Monsoon House');
    expect(english.map((b) => [b.partNumber, b.title])).toEqual([
      [1, 'The Will'],
      [2, 'The First Rain'],
    ]);
    const sinhala = await booksOf('ශ්‍රී පාද වලව්ව');
    expect(sinhala).toHaveLength(1);
    for (const book of [...english, ...sinhala]) {
      expect(book.durationSeconds).toBeGreaterThan(10);
      expect(book.sizes.saver).toBeLessThan(book.sizes.standard);
      const res = await t.app.inject({
        url: `/api/v1/audio/stream/${book.prefix}?quality=saver`,
        headers: { range: 'bytes=0-3' },
      });
      expect(res.statusCode).toBe(206);
      // WebM's EBML magic number.
      expect(res.rawPayload.toString('hex')).toBe('1a45dfa3');
    }
  });

  it('seeds once: a second start adds no tracks', async () => {
    const { seedDemoAudio } = await import('./demo.ts');
    await seedDemoAudio({ db: t.database.db, storage: t.storage });
    const [n] = await t.rows<{ n: number }>(sql`select count(*)::int as n from audio_tracks`);
    expect(n!.n).toBe(3);
  });
});
