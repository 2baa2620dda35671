import type { Platform } from '../../platform.ts';

/** Editors' review: flags, the one review queue, decisions, holds and the kept word list. */
export async function moderationModule(_platform: Platform): Promise<void> {}
