import { expect, type Locator, type Page } from '@playwright/test';

/** The author's workspace, /publish/story/: registration, stories, covers and the editor. */
export class PublishPage {
  readonly page: Page;
  readonly editor: Locator;
  readonly episodeTitle: Locator;
  readonly saveState: Locator;
  constructor(page: Page) {
    this.page = page;
    this.editor = page.getByRole('textbox', { name: 'Episode text' });
    this.episodeTitle = page.getByLabel('Episode title');
    this.saveState = page.locator('[data-save-state]');
  }

  async registerAsAuthor(penName: string, bio: string) {
    await expect(this.page.getByRole('heading', { name: 'Become an author' })).toBeVisible();
    await this.page.getByLabel('Pen name').fill(penName);
    await this.page.getByLabel('About you (optional)').fill(bio);
    await this.page.getByRole('button', { name: 'Become an author' }).click();
  }

  async createStory(story: { title: string; description: string; category: string }) {
    await this.page.getByRole('link', { name: 'New story' }).first().click();
    await this.page.getByRole('radio', { name: 'සිංහල' }).check();
    await this.page.getByLabel('Title', { exact: true }).fill(story.title);
    await this.page.getByLabel('About the story').fill(story.description);
    await this.page.getByLabel('Category').selectOption({ label: story.category });
    await this.page.getByRole('button', { name: 'Create story' }).click();
  }

  async uploadCover(png: Buffer) {
    await this.page
      .getByLabel('Cover image')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png });
    await expect(
      this.page.getByRole('img', { name: 'The new cover, not uploaded yet' }),
    ).toBeVisible();
    await this.page.getByRole('button', { name: 'Upload cover' }).click();
  }

  async newEpisode(title: string) {
    await this.page.getByRole('link', { name: 'New episode' }).click();
    await expect(this.editor).toBeVisible();
    await this.episodeTitle.fill(title);
  }

  /** Types at the end of the episode text, as a person would. */
  async type(text: string) {
    await this.editor.click();
    await this.page.keyboard.press('Control+End');
    await this.page.keyboard.type(text);
  }

  tool(name: 'Bold' | 'Italic' | 'Scene break' | 'Undo' | 'Redo') {
    return this.page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name });
  }

  async backToStory(title: string) {
    await this.page
      .getByRole('navigation', { name: 'You are here' })
      .getByRole('link', { name: title })
      .click();
  }

  /** Schedules the open episode for a local date-time input value ('2026-11-22T10:30'). */
  async schedule(localDateTime: string) {
    await this.page.getByRole('button', { name: 'Schedule…' }).click();
    await this.page.getByLabel('Publish at').fill(localDateTime);
    await this.page.getByRole('button', { name: 'Schedule', exact: true }).click();
  }
}
