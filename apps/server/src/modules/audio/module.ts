import type { Platform } from '../../platform.ts';

/** Audio episodes: authors' tracks, their processing job, streaming and listening positions. */
export async function audioModule(_platform: Platform): Promise<void> {}
