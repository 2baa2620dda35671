import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Platform } from '../../platform.ts';
import { englishStories } from '../../db/seed/content/stories-en.ts';
import { sinhalaStories } from '../../db/seed/content/stories-si.ts';
import { RENDITION_TYPES } from './ffmpeg.ts';
import { renditionKey } from './service.ts';

/** The demo's narrated episodes: one English story (two parts, so the player moves on) and one Sinhala. */
export const DEMO_TRACKS = [
  { storyKey: 'monsoon-house-s1', partNumber: 1 },
  { storyKey: 'monsoon-house-s1', partNumber: 2 },
  { storyKey: 'sri-pada-walawwa', partNumber: 1 },
] as const;

/** A demo track as scripts/audio-demo.ts made it (demo/tracks.json). */
export interface DemoTrack {
  storyKey: string;
  partNumber: number;
  title: string;
  durationSeconds: number;
  standardBytes: number;
  saverBytes: number;
}

/** A demo track's prefix: fixed, so a second start finds it seeded. */
export const demoPrefix = (t: { storyKey: string; partNumber: number }) =>
  createHash('sha256')
    .update(`demo-audio:${t.storyKey}:${t.partNumber}`)
    .digest('hex')
    .slice(0, 24);

/** Where scripts/audio-demo.ts put the renditions (copied beside the bundle by the build). */
const DEMO_DIR = path.join(import.meta.dirname, 'demo');

/**
 * Puts the checked-in demo renditions in storage and their tracks on the demo stories, once:
 * a track whose prefix is there already is left alone. Needs no ffmpeg.
 */
export async function seedDemoAudio(p: Pick<Platform, 'db' | 'storage'>) {
  const manifest = JSON.parse(
    await readFile(path.join(DEMO_DIR, 'tracks.json'), 'utf8'),
  ) as DemoTrack[];
  const titles = new Map([...englishStories, ...sinhalaStories].map((s) => [s.key, s.title]));
  for (const track of manifest) {
    const prefix = demoPrefix(track);
    const run = async <T>(q: ReturnType<typeof sql>) =>
      ((await p.db.execute(q)) as unknown as { rows: T[] }).rows;
    if ((await run(sql`select 1 from audio_tracks where prefix = ${prefix}`)).length) continue;
    const [story] = await run<{ id: number }>(
      sql`select id from stories where title = ${titles.get(track.storyKey) ?? ''} order by id limit 1`,
    );
    if (!story) continue;
    for (const quality of ['standard', 'saver'] as const) {
      const key = renditionKey(prefix, quality);
      const file = path.join(DEMO_DIR, prefix, path.basename(key));
      await p.storage.putFile(key, file, RENDITION_TYPES[quality]);
    }
    await p.db.execute(sql`insert into audio_tracks (story_id, title, part_number, members_only,
      position, status, prefix, duration_seconds, standard_bytes, saver_bytes)
      values (${story.id}, ${track.title}, ${track.partNumber}, false,
        (select coalesce(max(position), 0) + 1 from audio_tracks where story_id = ${story.id}),
        'ready', ${prefix}, ${track.durationSeconds}, ${track.standardBytes}, ${track.saverBytes})`);
  }
}
