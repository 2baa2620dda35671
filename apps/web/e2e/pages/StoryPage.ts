import type { Locator, Page } from '@playwright/test';
import { detailsPath } from '@kathamala/domain';

/** The story details and reading page, /details/{storyId}/{partId}/. */
export class StoryPage {
  readonly page: Page;
  readonly visitorWall: Locator;
  readonly subscriptionWall: Locator;
  readonly pager: Locator;
  readonly episodeLabel: Locator;
  constructor(page: Page) {
    this.page = page;
    this.visitorWall = page.getByRole('region', { name: 'Log in to keep reading' });
    this.subscriptionWall = page.getByRole('region', { name: /This story is for members/ });
    this.pager = page.getByRole('navigation', { name: 'Episodes' });
    this.episodeLabel = page.getByText(/^Episode \d+ of \d+$/);
  }

  async open(storyId: number, part?: number) {
    await this.page.goto(detailsPath(storyId, part));
  }

  title() {
    return this.page.getByRole('heading', { level: 1 });
  }

  wallLink(name: 'Login' | 'Join') {
    return this.visitorWall.getByRole('link', { name, exact: true });
  }

  async next() {
    await this.pager.getByRole('link', { name: 'Next' }).click();
  }

  async newest() {
    await this.pager.getByRole('link', { name: 'New' }).click();
  }
}
