/** The drawer offers Web Push once; after Turn on or Not now it stays quiet on this device. */
export const PUSH_PROMPT_KEY = 'kathamala.pushPrompt';

export const pushPromptDismissed = (): boolean => {
  try {
    return localStorage.getItem(PUSH_PROMPT_KEY) === 'done';
  } catch {
    return true;
  }
};

export const dismissPushPrompt = (): void => {
  try {
    localStorage.setItem(PUSH_PROMPT_KEY, 'done');
  } catch {
    // Private mode without storage: the prompt may show again, which is harmless.
  }
};
