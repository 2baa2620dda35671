import { randomBytes } from 'node:crypto';
import type { Platform } from '../../platform.ts';
import type { StoriesService } from '../stories/service.ts';
import { capabilities } from './capability.ts';
import { seedDemoAudio } from './demo.ts';
import { findFfmpeg } from './ffmpeg.ts';
import { AUDIO_JOB, audioService } from './service.ts';
import { audioRoutes } from './routes.ts';
import { streamRoutes } from './stream.ts';

/** Audio episodes: authors' tracks, their processing job, streaming and listening positions. */
export async function audioModule(p: Platform, stories?: Pick<StoriesService, 'useAudio'>) {
  const ffmpeg = findFfmpeg();
  if (!ffmpeg)
    p.app.log.warn(
      'Audio: ffmpeg is not installed, so audio uploads are refused (503); listening works. Install it with: apt-get install -y ffmpeg',
    );
  // The key of members' capability prefixes, shared by every instance through the database.
  const secret = await p.secrets.get('audio-capability-key', {
    fromFile: async () => null,
    make: () => randomBytes(32).toString('base64url'),
  });
  const caps = capabilities(secret);
  const audio = audioService({
    db: p.db,
    queue: p.queue,
    storage: p.storage,
    cache: p.cache,
    ffmpeg,
    capabilities: caps,
  });
  stories?.useAudio(audio.books);
  // After the demo seed (buildApp registers this module after it): its stories get narration.
  if (p.config.demoSeed) await seedDemoAudio(p);
  await audioRoutes(p.app, audio);
  streamRoutes(p.app, {
    storage: p.storage,
    capabilities: caps,
    trackByPrefix: audio.trackByPrefix,
    perListenerPerMinute: p.config.rateLimit.audioStreamMax,
  });
  // Only a server that can convert takes the jobs: another one with ffmpeg will.
  if (ffmpeg)
    await p.queue.work<{ trackId: number }>(AUDIO_JOB, (job) => audio.process(job.data.trackId));
  return audio;
}
