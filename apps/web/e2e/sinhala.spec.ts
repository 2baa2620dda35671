import {
  expect,
  test,
  type APIRequestContext,
  type Locator,
  type Page,
} from './support/hydrated.ts';
import {
  apiPaths,
  detailsPath,
  transliterate,
  type OwnStory,
  type StoryListItem,
} from '@kathamala/domain';
import JSZip from 'jszip';
import { findStory, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const TOGGLE = 'Type Sinhala in English letters (Singlish)';

// The heading of the Sri Lanka government gazette as typed in FM Abhaya, and its Unicode.
const LEGACY = 'Y%S ,xld m%cd;dka;%sl iudcjd§ ckrcfha .eiÜ m;%h';
const UNICODE = 'ශ්\u200Dරී ලංකා ප්\u200Dරජාතාන්ත්\u200Dරික සමාජවාදී ජනරජයේ ගැසට් පත්\u200Dරය';

/** A screenshot to look at: in SINHALA_SHOTS when set, else beside the test's results. */
async function shot(page: Page, name: string) {
  const dir = process.env.SINHALA_SHOTS;
  const path = dir ? `${dir}/${name}.png` : test.info().outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: false });
}

/** Pastes text into the focused element as a person would (a ClipboardEvent with its data). */
async function paste(target: Locator, text: string) {
  await target.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** A minimal Word document (.docx) with one paragraph per line. */
async function docx(lines: string[]): Promise<Buffer> {
  const zip = new JSZip();
  const escape = (t: string) =>
    t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${lines
      .map(
        (l) =>
          `<w:p><w:r><w:rPr><w:rFonts w:ascii="FMAbhaya" w:hAnsi="FMAbhaya"/></w:rPr><w:t xml:space="preserve">${escape(l)}</w:t></w:r></w:p>`,
      )
      .join('')}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

async function login(request: APIRequestContext, email: string) {
  const res = await request.post(apiPaths.login(), {
    data: { email, password: 'kathamala-demo' },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { object: { accesstoken: string } }).object.accesstoken;
}

test('a reader on a phone searches in Singlish and finds the Sinhala story', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  const story = await findStory(request, (s) => s.title === 'හොල්මන් කඩවත', 'Holman Kadawatha');
  await page.goto('/');
  const search = page.getByRole('searchbox', { name: 'Search stories' });
  // Typed the way people type: no aspirate, short vowels.
  await search.fill('holman kadawata');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=holman/);
  const result = page.getByRole('link', { name: story.title }).first();
  await expect(result).toBeVisible();
  // And by the author's name, with w/v and a doubled letter as people type them.
  await search.fill('saman vijesingha');
  await search.press('Enter');
  await expect(page.getByRole('link', { name: story.title }).first()).toBeVisible();
  await shot(page, 'search-singlish-375');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'search-singlish-1280');
});

test('Singlish typing in the search box: shown in Sinhala as typed, remembered, undone', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  let apiCalls = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/')) apiCalls++;
  });
  await page.goto('/');
  const search = page.getByRole('searchbox', { name: 'Search stories' });
  const toggle = page.getByRole('button', { name: TOGGLE });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await search.click();
  await page.waitForLoadState('networkidle');
  const before = apiCalls;
  await page.keyboard.type('holman');
  await expect(search).toHaveValue(transliterate('holman'));
  await page.keyboard.type(' kadawatha');
  await expect(search).toHaveValue(`${transliterate('holman')} ${transliterate('kadawatha')}`);
  // No network call while typing.
  expect(apiCalls).toBe(before);
  await shot(page, 'search-typing-375');

  // Ctrl+Z gives back the Latin letters of the last word.
  await page.keyboard.press('Control+z');
  await expect(search).toHaveValue(`${transliterate('holman')} kadawatha`);
  // The visible undo does the same for the word just typed.
  await page.keyboard.type(' ');
  await page.keyboard.type('gedhara');
  await expect(search).toHaveValue(
    `${transliterate('holman')} kadawatha ${transliterate('gedhara')}`,
  );
  await page.getByRole('button', { name: 'Back to “gedhara”' }).click();
  await expect(search).toHaveValue(`${transliterate('holman')} kadawatha gedhara`);

  // The switch is remembered, and its key table is one tap away.
  await page.reload();
  await expect(page.getByRole('button', { name: TOGGLE })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Singlish keys' }).click();
  const help = page.getByRole('dialog', { name: 'Typing Sinhala in English letters' });
  await expect(help).toBeVisible();
  await expect(help.getByText('kh', { exact: true })).toBeVisible();
  await shot(page, 'singlish-help-375');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

// The story page sends a narrowed window home (the anti-copy guard): the phone is set up front.
test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('a reader writes a comment in Singlish with the switch on', async ({ page, request }) => {
    const story: StoryListItem = await findStory(
      request,
      (s) => s.kind === 0 && !s.membersOnly,
      'free text story',
    );
    await useToken(page, await signupByApi(request));
    await page.goto(detailsPath(story.storyId, 1));
    await page
      .getByRole('heading', { name: /^(Rate|Clap for) this story$/ })
      .scrollIntoViewIfNeeded();
    const box = page.getByRole('textbox', { name: 'Write a response' });
    await box.scrollIntoViewIfNeeded();
    const form = page.locator('form').filter({ has: box });
    await form.getByRole('button', { name: TOGGLE }).click();
    await box.click();
    await page.keyboard.type('mata hari aasai. ');
    const expected = `${transliterate('mata')} ${transliterate('hari')} ${transliterate('aasai')}.`;
    await expect(box).toHaveValue(`${expected} `);
    // A mention keeps its Latin spelling.
    await page.keyboard.type('@kasun');
    await expect(box).toHaveValue(`${expected} @kasun`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('mata hari aasai.');
    await expect(box).toHaveValue(expected);
    await shot(page, 'comment-singlish-375');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    const section = page.getByRole('region', { name: /^Responses/ });
    await expect(section.getByRole('listitem').filter({ hasText: expected })).toBeVisible();
    await expect(box).toHaveValue('');

    // FM Abhaya pasted into a comment arrives as Unicode, with an undo.
    await box.click();
    await paste(box, LEGACY);
    await expect(box).toHaveValue(UNICODE);
    await form.getByRole('button', { name: 'Undo' }).click();
    await expect(box).toHaveValue(LEGACY);
    // English pastes are untouched.
    await box.fill('');
    await paste(box, 'Lovely ending, thank you!');
    await expect(box).toHaveValue('');
    await expect(form.getByText('Converted from FM Abhaya.')).toHaveCount(0);
  });
});

test('an author pastes FM Abhaya text into the editor, types Singlish, and imports a document', async ({
  page,
  request,
}) => {
  const token = await login(request, 'nilmini@demo.kathamala.lk');
  const own = await request.get(apiPaths.ownStories(), {
    headers: { authorization: `Bearer ${token}` },
  });
  const story = ((await own.json()) as { object: { stories: OwnStory[] } }).object.stories[0]!;
  await useToken(page, token);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/publish/story/?story=${story.storyId}&episode=new`);
  const editor = page.getByRole('textbox', { name: 'Episode text' });
  await expect(editor).toBeVisible();
  await page.getByLabel('Episode title').fill('FM Abhaya paste');

  // A legacy paste is converted, says so, and Undo brings the pasted letters back.
  await editor.click();
  await paste(editor, LEGACY);
  await expect(editor).toContainText(UNICODE);
  const notice = page.getByRole('status').filter({ hasText: 'Converted from FM Abhaya.' });
  await expect(notice).toBeVisible();
  await shot(page, 'editor-legacy-1280');
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(editor).toContainText(LEGACY);
  await expect(editor).not.toContainText(UNICODE);
  await expect(notice).toBeHidden();

  // Plain English pastes are left alone.
  await paste(editor, ' And some English.');
  await expect(editor).toContainText('And some English.');
  await expect(notice).toBeHidden();

  // Singlish in the editor: the word turns Sinhala as it is typed; Ctrl+Z gives it back.
  await page
    .getByRole('toolbar', { name: 'Formatting' })
    .getByRole('button', { name: TOGGLE })
    .click();
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('ammaa gedhara giyaa');
  await expect(editor).toContainText(
    `${transliterate('ammaa')} ${transliterate('gedhara')} ${transliterate('giyaa')}`,
  );
  await page.keyboard.press('Control+z');
  await expect(editor).toContainText(`${transliterate('gedhara')} giyaa`);
  await page.setViewportSize(PHONE);
  await shot(page, 'editor-singlish-375');

  // A whole legacy document becomes draft episodes.
  await page.setViewportSize(DESKTOP);
  await page.goto(`/publish/story/?story=${story.storyId}`);
  await page.getByRole('button', { name: 'Import a document' }).click();
  const doc = [LEGACY, 'Y%S ,xld fmd,sia', '***', 'wdKavql%u jHjia:dj'].join('\n');
  await page.getByLabel('Or paste the text here').fill(doc);
  await page.getByRole('button', { name: 'Make episodes' }).click();
  await expect(page.getByText('Converted from FM Abhaya to Unicode Sinhala.')).toBeVisible();
  await expect(page.getByText('2 episodes found.')).toBeVisible();
  await expect(page.getByLabel('Title of episode 2')).toHaveValue('කොටස 2');
  await page.getByLabel('Title of episode 2').fill('ආණ්ඩුක්‍රම කොටස');
  await shot(page, 'import-1280');
  await page.getByRole('button', { name: 'Save 2 drafts' }).click();
  await expect(page.getByText('2 drafts saved.')).toBeVisible();
  const episodes = page.getByRole('region', { name: 'Episodes' });
  await expect(episodes.getByText('ආණ්ඩුක්‍රම කොටස')).toBeVisible();
  await expect(episodes.getByText('කොටස 1', { exact: true })).toBeVisible();

  // The same from a Word document (read by mammoth, loaded only now).
  await page.getByLabel('Document (.txt or .docx)').setInputFiles({
    name: 'katha.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: await docx(['Episode 1', LEGACY, 'Episode 2', 'wdKavql%u jHjia:dj']),
  });
  await expect(page.getByText('2 episodes found.')).toBeVisible();
  await expect(page.getByLabel('Title of episode 1')).toHaveValue('Episode 1');
  await expect(page.getByText(UNICODE)).toBeVisible();
});
