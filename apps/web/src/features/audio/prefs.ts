import type { AudioQuality } from '@kathamala/domain';
import { validSpeed } from './model.ts';

// The listener's choices, remembered on this device: the speed and the quality (data saver).
const SPEED_KEY = 'audio.speed';
const QUALITY_KEY = 'audio.quality';

const store = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/** The speed last chosen, 1 when none (or a value we do not offer). */
export const storedSpeed = (): number => validSpeed(store()?.getItem(SPEED_KEY) ?? null);
export const storeSpeed = (speed: number): void => store()?.setItem(SPEED_KEY, String(speed));

/** The quality the listener chose, null when they never did (the browser's hint decides). */
export const storedQuality = (): AudioQuality | null => {
  const raw = store()?.getItem(QUALITY_KEY);
  return raw === 'standard' || raw === 'saver' ? raw : null;
};
export const storeQuality = (quality: AudioQuality): void => store()?.setItem(QUALITY_KEY, quality);

/** True when the browser asks pages to save data (Chrome's Data Saver, Android's Lite mode). */
export const browserSavesData = (): boolean =>
  typeof navigator !== 'undefined' &&
  (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
