/**
 * The stop-audio event of SPEC.md 4: whoever ends what the listener is in (logout, leaving the
 * story) announces it, and a playing player stops. A window event, so the page that announces
 * it needs none of the player's code.
 */
export const STOP_AUDIO_EVENT = 'kathamala:stop-audio';

/** Asks any playing audio to stop. */
export const stopAudio = (): void => {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(STOP_AUDIO_EVENT));
};

/** Calls `stop` on each stop-audio event; returns the unsubscribe. */
export const onStopAudio = (stop: () => void): (() => void) => {
  window.addEventListener(STOP_AUDIO_EVENT, stop);
  return () => window.removeEventListener(STOP_AUDIO_EVENT, stop);
};
