import type { Platform } from '../../platform.ts';

/** Campaigns: questionnaires answered by mobile, writing contests and their rankings, ad metrics. */
export async function campaignsModule(_platform: Platform): Promise<void> {}
