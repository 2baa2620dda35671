import { useSyncExternalStore } from 'react';

/** Where the Singlish typing switch is remembered: one choice for every box on the site. */
export const SINGLISH_STORAGE_KEY = 'kathamala.singlish';

const listeners = new Set<() => void>();

/** Whether Singlish typing is on in this browser (off until a person turns it on). */
export function readSinglishOn(): boolean {
  try {
    return localStorage.getItem(SINGLISH_STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns Singlish typing on or off everywhere (every toggle on the page follows). */
export function writeSinglishOn(on: boolean): void {
  try {
    localStorage.setItem(SINGLISH_STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Private mode without storage: the switch still works for this page.
    fallback = on;
  }
  for (const l of listeners) l();
}

let fallback: boolean | null = null;
const snapshot = () => fallback ?? readSinglishOn();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === SINGLISH_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

/** The remembered switch, shared by every toggle; off on the server. */
export const useSinglishOn = (): boolean => useSyncExternalStore(subscribe, snapshot, () => false);
