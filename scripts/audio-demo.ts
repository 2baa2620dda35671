/**
 * npx tsx scripts/audio-demo.ts: the demo's narrated episodes (issue 29). espeak-ng reads the
 * opening of a few demo episodes (English and Sinhala); the server's own processing
 * (renderRenditions: loudnorm, AAC 64k M4A and Opus 24k WebM) makes the renditions, which are
 * checked in under apps/server/src/modules/audio/demo/ with a manifest, so `npm start` seeds and
 * plays them without ffmpeg. Needs ffmpeg and espeak-ng (apt-get install -y ffmpeg espeak-ng).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { englishStories } from '../apps/server/src/db/seed/content/stories-en.ts';
import { sinhalaStories } from '../apps/server/src/db/seed/content/stories-si.ts';
import { findFfmpeg, renderRenditions } from '../apps/server/src/modules/audio/ffmpeg.ts';
import { DEMO_TRACKS, demoPrefix, type DemoTrack } from '../apps/server/src/modules/audio/demo.ts';

const out = path.resolve(import.meta.dirname, '../apps/server/src/modules/audio/demo');
/** About 25 seconds of speech each (Sinhala reads slower per letter): a few hundred KB in all. */
const NARRATED_CHARS = { english: 420, sinhala: 260 } as const;

/** The opening of an episode's text, cut at a sentence end, as plain text. */
const opening = (content: string, language: 'english' | 'sinhala') => {
  const text = content
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = text.slice(0, NARRATED_CHARS[language]);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  return end > 80 ? cut.slice(0, end + 1) : cut;
};

const tools = findFfmpeg();
if (!tools) throw new Error('ffmpeg is not installed: apt-get install -y ffmpeg espeak-ng');
const stories = [...englishStories, ...sinhalaStories];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-demo-'));
const manifest: DemoTrack[] = [];
fs.rmSync(out, { recursive: true, force: true });
for (const spec of DEMO_TRACKS) {
  const story = stories.find((s) => s.key === spec.storyKey);
  const episode = story?.episodes[spec.partNumber - 1];
  if (!story || !episode) throw new Error(`no demo episode ${spec.storyKey} ${spec.partNumber}`);
  const wav = path.join(tmp, 'narration.wav');
  const voice = story.language === 'sinhala' ? 'si' : 'en-gb';
  execFileSync('espeak-ng', [
    '-v',
    voice,
    '-s',
    '150',
    '-w',
    wav,
    opening(episode.content, story.language),
  ]);
  const prefix = demoPrefix(spec);
  const dir = path.join(out, prefix);
  fs.mkdirSync(dir, { recursive: true });
  const made = await renderRenditions(tools, wav, dir);
  manifest.push({
    ...spec,
    title: `${episode.title}`,
    durationSeconds: Math.round(made.standard.durationSeconds * 10) / 10,
    standardBytes: made.standard.bytes,
    saverBytes: made.saver.bytes,
  });
  console.log(
    `${spec.storyKey} part ${spec.partNumber}: ${made.standard.durationSeconds.toFixed(1)} s, standard ${made.standard.bytes} B, saver ${made.saver.bytes} B (${prefix})`,
  );
}
fs.writeFileSync(path.join(out, 'tracks.json'), `${JSON.stringify(manifest, null, 2)}\n`);
fs.rmSync(tmp, { recursive: true, force: true });
