import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/**
 * Waits until the app has hydrated a page of ours (`<html data-hydrated>`); pages that are not
 * the app (the API docs, a JSON answer) have no pre-paint script and pass at once. The app's
 * scripts load after the first paint, so `goto` (which waits for `load`) can return while the
 * page is only server-rendered: a click or a fill then meets the markup, not the app.
 */
const hydrated = (page: Page) =>
  page
    .waitForFunction(
      () =>
        !document.querySelector('script[data-app]') ||
        document.documentElement.hasAttribute('data-hydrated'),
      undefined,
      { timeout: 15_000 },
    )
    .catch(() => {
      // A page that never hydrates fails on its own assertions, with a clearer message.
    });

/** Makes a page's goto and reload return once the app has taken the page over (see above). */
export function waitingForTheApp(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args);
    await hydrated(page);
    return response;
  };
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const response = await reload(...args);
    await hydrated(page);
    return response;
  };
  return page;
}

/** Playwright's test, whose page waits for the app after goto and reload. */
export const test = base.extend({
  page: async ({ page }, provide) => {
    await provide(waitingForTheApp(page));
  },
});
