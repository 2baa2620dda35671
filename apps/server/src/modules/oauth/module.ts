import type { Platform } from '../../platform.ts';

/** Sign-in with Google and Facebook, linked accounts, and e-mail verification. */
export async function oauthModule(_platform: Platform): Promise<void> {}
