import type { Page } from '@playwright/test';

/** Starts a browser session with a token, as if the reader had logged in earlier. */
export async function useToken(page: Page, token: string) {
  await page.goto('/login');
  await page.evaluate((t) => localStorage.setItem('accesstoken', t), token);
}
