import type { Page } from '@playwright/test';

/**
 * Holds the page's clock still from about now on (after `page.clock.install()`). The clock flows
 * on its own until then, so a time asked for may already be past on a slow machine: ask again a
 * little further ahead.
 */
export async function holdClock(page: Page): Promise<void> {
  for (let ahead = 200; ; ahead *= 2) {
    try {
      await page.clock.pauseAt(await page.evaluate((ms) => Date.now() + ms, ahead));
      return;
    } catch (e) {
      if (ahead >= 6_400 || !String(e).includes('to the past')) throw e;
    }
  }
}
