import type { Page } from '@playwright/test';

/** /login and /signup. */
export class AuthPage {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async signup(account: { email: string; password: string; username: string }) {
    await this.page.getByLabel('Username').fill(account.username);
    await this.page.getByLabel('Email').fill(account.email);
    await this.page.getByLabel('Password').fill(account.password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }

  async login(account: { email: string; password: string }) {
    await this.page.getByLabel('Email').fill(account.email);
    await this.page.getByLabel('Password').fill(account.password);
    await this.page.getByRole('button', { name: 'Log in' }).click();
  }
}
