import type { Locator, Page } from '@playwright/test';

/** The header every page shares: menu, search box and language switch. */
export class AppShell {
  readonly page: Page;
  readonly searchBox: Locator;
  constructor(page: Page) {
    this.page = page;
    this.searchBox = page.getByRole('search').getByRole('searchbox');
  }

  /** The main menu that is visible at the current width (inline on wide screens, a drop-down on phones). */
  async menu(): Promise<Locator> {
    const menuButton = this.page.locator('summary', { hasText: /Menu|මෙනුව/ });
    if (await menuButton.isVisible()) {
      const details = this.page.locator('details:has(summary)');
      if (!(await details.getAttribute('open'))) await menuButton.click();
      return details.getByRole('navigation');
    }
    return this.page.getByRole('banner').getByRole('navigation').first();
  }

  async search(text: string) {
    await this.searchBox.fill(text);
    await this.searchBox.press('Enter');
  }

  languageButton(label: 'EN' | 'සිං') {
    return this.page.getByRole('button', { name: label, exact: true });
  }

  async logout() {
    const menu = await this.menu();
    await menu.getByRole('button', { name: 'Logout' }).click();
  }
}
