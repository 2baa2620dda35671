import { COMFORT_STORAGE_KEY } from '@kathamala/domain';

/*
 * Reading comfort, remembered per device: a theme for the whole app and the episode text's size
 * and line spacing. A script in the page head applies the stored settings before first paint
 * (<html data-theme data-text-size data-line-spacing>); the panel writes the same key and sets
 * the same attributes live, and CSS (tokens.css, global.css) styles them.
 */

export const THEMES = ['system', 'light', 'sepia', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Text size steps 0..4 and line spacing steps 0..2; the middle ones are the design's defaults. */
export const TEXT_SIZES = 5;
export const LINE_SPACINGS = 3;

export interface Comfort {
  theme: Theme;
  size: number;
  spacing: number;
}

/** The system's theme (light or dark as the device says), normal size and spacing. */
export const DEFAULT_COMFORT: Comfort = { theme: 'system', size: 2, spacing: 1 };

const step = (value: unknown, count: number, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < count
    ? value
    : fallback;

/** Reads stored settings; anything missing or malformed falls back to the default. */
export const parseComfort = (raw: string | null | undefined): Comfort => {
  let value: unknown;
  try {
    value = raw ? JSON.parse(raw) : null;
  } catch {
    value = null;
  }
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    theme: THEMES.includes(o.theme as Theme) ? (o.theme as Theme) : DEFAULT_COMFORT.theme,
    size: step(o.size, TEXT_SIZES, DEFAULT_COMFORT.size),
    spacing: step(o.spacing, LINE_SPACINGS, DEFAULT_COMFORT.spacing),
  };
};

/** Sets the attributes the CSS keys on, exactly as the head script does. */
export const applyComfort = (c: Comfort, root: HTMLElement): void => {
  root.setAttribute('data-theme', c.theme);
  root.setAttribute('data-text-size', String(c.size));
  root.setAttribute('data-line-spacing', String(c.spacing));
};

export const readComfort = (): Comfort => {
  try {
    return parseComfort(localStorage.getItem(COMFORT_STORAGE_KEY));
  } catch {
    return DEFAULT_COMFORT;
  }
};

/** Remembers the settings on this device and applies them to the page at once. */
export const saveComfort = (c: Comfort): void => {
  try {
    localStorage.setItem(COMFORT_STORAGE_KEY, JSON.stringify(c));
  } catch {
    // Private mode or full storage: the settings still apply to this page.
  }
  applyComfort(c, document.documentElement);
};
