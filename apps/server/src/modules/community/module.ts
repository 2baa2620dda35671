import type { Platform } from '../../platform.ts';

/** The community area: posts, feeds, likes, shares, post comments, profiles, roles and the audit log. */
export async function communityModule(_platform: Platform): Promise<void> {}
