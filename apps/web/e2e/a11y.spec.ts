import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './support/hydrated.ts';
import { apiPaths, detailsPath, type UiLang } from '@kathamala/domain';
import { BASE_URL } from './playwright.config.ts';
import { findStory } from './support/api.ts';
import { useToken } from './support/session.ts';

/** The WCAG 2.1 A and AA rules axe-core knows. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [375, 1280] as const;
const LANGS: UiLang[] = ['en', 'si'];

async function login(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post(apiPaths.login(), {
    data: { email, password: 'kathamala-demo' },
  });
  expect(res.ok(), `login as ${email}`).toBe(true);
  return ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken;
}

/** Axe's findings on the page as it stands, one readable line per rule and element. */
async function violations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  // Data the client fetches (a reader's episode, lists, comments) is part of the page. Pages
  // that poll (the unread count, an editor's autosave) may never go quiet: check them anyway.
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  const { violations: found } = await new AxeBuilder({ page })
    .withTags(WCAG_21_AA)
    // WCAG 2.5.3 (a link's name holds its visible text) is still marked experimental in axe.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return found.flatMap((v) =>
    v.nodes.map((n) => `${path}: ${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary}`),
  );
}

// Each check opens its own page: they run side by side on Playwright's workers.
test.describe.configure({ mode: 'parallel' });

for (const lang of LANGS) {
  for (const width of WIDTHS) {
    test.describe(`axe, WCAG 2.1 AA, ${lang === 'en' ? 'English' : 'Sinhala'} at ${width} px`, () => {
      test.use({ viewport: { width, height: width < 768 ? 800 : 900 } });
      test.beforeEach(async ({ context }) => {
        await context.addCookies([{ name: 'lang', value: lang, url: BASE_URL }]);
      });

      test('every page a visitor opens has no violations', async ({ page, request }) => {
        // A dozen pages, each loaded and checked in full.
        test.setTimeout(180_000);
        const story = await findStory(
          request,
          (s) => s.kind === 0 && !s.membersOnly && s.numberOfparts >= 2,
          'free text story with two or more episodes',
        );
        const paths = [
          '/',
          '/category',
          '/category?c=romance',
          detailsPath(story.storyId),
          detailsPath(story.storyId, 2),
          '/search?q=monsoon',
          '/login',
          '/signup',
          apiPaths.authorPage(story.author.authorId),
          '/leaderboard/',
          '/mail/',
          '/no-such-page/',
        ];
        const found: string[] = [];
        for (const p of paths) found.push(...(await violations(page, p)));
        expect(found).toEqual([]);
      });

      test('every page a member and an author open has no violations', async ({
        page,
        request,
      }) => {
        test.setTimeout(180_000);
        const story = await findStory(
          request,
          (s) => s.kind === 0 && s.membersOnly && s.numberOfparts >= 2,
          'members-only text story with two or more episodes',
        );
        const found: string[] = [];
        // A member reads a members-only episode: the text, rating, alerts and comments.
        await useToken(page, await login(request, 'member@demo.kathamala.lk'));
        for (const p of ['/', detailsPath(story.storyId, 2), '/bookmarks/', '/account/'])
          found.push(...(await violations(page, p)));
        // An author's workspace and statistics.
        await useToken(page, await login(request, 'nilmini@demo.kathamala.lk'));
        for (const p of ['/publish/story/', '/statistics/'])
          found.push(...(await violations(page, p)));
        expect(found).toEqual([]);
      });
    });
  }
}
