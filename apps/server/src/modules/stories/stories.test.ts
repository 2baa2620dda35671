import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  countWords,
  episodePlainText,
  escapeEpisodeText,
  OPENING_WORDS,
  STORY_MESSAGES,
  type StoryListItem,
} from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { DEMO_MEMBER, DEMO_PASSWORD, demoStories } from '../../db/seed/index.ts';

let t: TestApp;
let all: StoryListItem[];
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

beforeAll(async () => {
  t = await createTestApp();
  const pages = [];
  for (let page = 1; ; page++) {
    const body = (await get(apiPaths.listV2({ page }))).json().object;
    pages.push(...body.stories);
    if (pages.length >= body.total) break;
  }
  all = pages;
});
afterAll(() => t.close());

const seed = demoStories();
const released = seed.filter((s) => !(s.releaseInDays && s.releaseInDays > 0));
const find = (pred: (s: StoryListItem) => boolean) => {
  const s = all.find(pred);
  if (!s) throw new Error('no demo story matches');
  return s;
};

describe('story lists', () => {
  it('lists every released demo story once, best rated first, with the list fields', async () => {
    expect(all).toHaveLength(released.length);
    expect(new Set(all.map((s) => s.storyId)).size).toBe(all.length);
    const ratings = all.map((s) => s.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const first = all[0]!;
    for (const key of [
      'storyId',
      'title',
      'description',
      'kind',
      'membersOnly',
      'ongoing',
      'language',
      'author',
      'reads',
      'rating',
      'numberOfparts',
    ])
      expect(first).toHaveProperty(key);
    const lantern = find((s) => s.title.includes('Lantern'));
    expect(lantern.numberOfparts).toBe(
      seed.find((s) => s.title.includes('Lantern'))!.episodes.length,
    );
  });

  it('sorts by reads and by newest, and filters by category and ongoing', async () => {
    const byReads = (await get(apiPaths.listV2({ sortBy: 'reads' }))).json().object
      .stories as StoryListItem[];
    expect(byReads.map((s) => s.reads)).toEqual(
      [...byReads.map((s) => s.reads)].sort((a, b) => b - a),
    );
    const newest = (await get(apiPaths.listV2({ sortBy: 'new' }))).json().object
      .stories as StoryListItem[];
    // The seed releases its stories one after another, the first most recently.
    expect(newest.map((s) => s.title)).toEqual(
      released.slice(0, newest.length).map((s) => s.title.normalize('NFC')),
    );
    const mystery = (await get(apiPaths.listV2({ category: 'mystery' }))).json().object;
    expect(mystery.total).toBe(released.filter((s) => s.category === 'mystery').length);
    expect(mystery.stories.every((s: StoryListItem) => s.category === 'mystery')).toBe(true);
    const finished = (await get(apiPaths.listV2({ ongoing: 'false' }))).json().object;
    expect(finished.total).toBe(released.filter((s) => !s.ongoing).length);
  });

  it('pages through results without overlap', async () => {
    const one = (await get(apiPaths.listV2({ page: 1 }))).json().object;
    const two = (await get(apiPaths.listV2({ page: 2 }))).json().object;
    expect(one.stories).toHaveLength(Math.min(one.pageSize, one.total));
    const ids = new Set(one.stories.map((s: StoryListItem) => s.storyId));
    expect(two.stories.some((s: StoryListItem) => ids.has(s.storyId))).toBe(false);
    const far = (await get(apiPaths.listV2({ page: 999 }))).json().object;
    expect(far.stories).toEqual([]);
  });

  it('answers upcoming, trending and premium under their SPEC.md keys', async () => {
    const upcoming = (await get(apiPaths.upcoming())).json().object.upcomingStories;
    expect(upcoming.length).toBe(seed.length - released.length);
    expect(
      upcoming.every((u: { releaseDate: string }) => new Date(u.releaseDate) > new Date()),
    ).toBe(true);
    expect(
      all.some((s) => upcoming.some((u: { storyId: number }) => u.storyId === s.storyId)),
    ).toBe(false);
    const trending = (await get(apiPaths.trending())).json().object.trending;
    expect(trending.length).toBeGreaterThan(0);
    expect(Object.keys(trending[0]).sort()).toEqual([
      'author',
      'description',
      'language',
      'reads',
      'storyId',
      'title',
    ]);
    const premium = (await get(apiPaths.premium())).json().object.premium as StoryListItem[];
    expect(premium.length).toBe(released.filter((s) => s.membersOnly).length);
    expect(premium.every((s) => s.membersOnly)).toBe(true);
  });

  it("lists an author's stories and 404s an unknown author", async () => {
    const story = all[0]!;
    const res = (await get(apiPaths.authorStories(story.author.authorId))).json().object;
    expect(res.author.name).toBe(story.author.name);
    expect(
      res.stories.every((s: StoryListItem) => s.author.authorId === story.author.authorId),
    ).toBe(true);
    const missing = await get(apiPaths.authorStories(99999));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 4 });
  });

  it('answers an unchanged list with 304 to a conditional request', async () => {
    const first = await get(apiPaths.listV2());
    expect(first.headers['cache-control']).toMatch(/public/);
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    const again = await get(apiPaths.listV2(), { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('bad input', () => {
  it.each([
    ['/api/v1/story/listV2/?page=-1', 400, "'page' must be 1 or more."],
    ['/api/v1/story/listV2/?page=abc', 400, "'page' must be a whole number."],
    ['/api/v1/story/listV2/?sortBy=random', 400, "'sortBy' must be one of: rate, new, reads."],
    [
      '/api/v1/story/listV2/?category=%3Cscript%3E',
      400,
      "'category' contains characters that are not allowed.",
    ],
    ['/api/v1/story/abc/preview/', 400, "'id' must be a whole number."],
    ['/api/v1/story/0/preview/', 400, "'id' must be 1 or more."],
    [
      '/api/v1/story/99999/preview/',
      404,
      'We could not find that story. It may have been removed.',
    ],
    ['/api/v1/story/search/?query=', 400, "'query' must not be empty."],
    ['/api/v1/nope', 404, 'There is nothing at this address.'],
  ])('GET %s -> %i with a sentence', async (url, status, message) => {
    const res = await get(url);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ code: expect.any(Number), message });
    expect(res.json().code).toBeGreaterThan(0);
  });

  it('rejects malformed JSON, a non-object body and an oversize body without a 500', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 1, message: 'The request body is not valid JSON.' });
    const arr = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: [1, 2] });
    expect(arr.statusCode).toBe(400);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { email: 'a@b.lk', password: 'x'.repeat(100_000) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The request is too large.');
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ code: 1, message: 'The request body must be a JSON object.' });
  });
});

describe('reading a story', () => {
  const freeText = () => find((s) => !s.membersOnly && s.kind === 0 && s.numberOfparts >= 3);
  const membersOnly = () => find((s) => s.membersOnly);

  it('shows anyone a preview without episode text, but the opening of a free part 1', async () => {
    const story = freeText();
    const res = await get(apiPaths.preview(story.storyId));
    expect(res.statusCode).toBe(200);
    const body = res.json().object;
    expect(body.story.title).toBe(story.title);
    expect(body.story.releaseDate).toBeUndefined();
    expect(body.part.content).toBeUndefined();
    expect(body.numberOfparts).toBe(story.numberOfparts);
    expect(body.author).toMatchObject({
      name: story.author.name,
      keyword: expect.stringMatching(/^REG /),
    });
    // About 150 words of part 1, whole sentences, a true start of its text; never the rest.
    const text = seed.find((s) => s.title === story.title)!.episodes[0]!.content.normalize('NFC');
    const opening = episodePlainText(body.part.opening);
    expect(countWords(opening)).toBeGreaterThan(40);
    expect(countWords(opening)).toBeLessThanOrEqual(OPENING_WORDS);
    expect(countWords(opening)).toBeLessThanOrEqual(countWords(text) / 2);
    expect(opening).toMatch(/[.!?"”’]$/);
    const paragraphs = opening.split('\n\n');
    for (const p of paragraphs.slice(0, -1)) expect(text).toContain(p);
    expect(text.startsWith(paragraphs[0]!)).toBe(true);
    const rest = text.slice(text.indexOf(paragraphs.at(-1)!) + paragraphs.at(-1)!.length).trim();
    expect(rest.length).toBeGreaterThan(100);
    // The part's last words (its last line) are nowhere in the answer.
    const lastWords = text.trim().split('\n').at(-1)!.slice(-60);
    expect(rest).toContain(lastWords);
    expect(res.body).not.toContain(escapeEpisodeText(lastWords));
  });

  it('gives no opening of a members-only story, to anyone', async () => {
    const story = membersOnly();
    const text = seed.find((s) => s.title === story.title)!.episodes[0]!.content;
    for (const token of [null, await t.signup()]) {
      const res = await get(apiPaths.preview(story.storyId), token ? bearer(token) : {});
      expect(res.json().object.part.opening).toBeUndefined();
      expect(res.body).not.toContain(text.slice(0, 40));
    }
  });

  it("tells anyone an upcoming story's release date and the reader why there is no part", async () => {
    const [upcoming] = (await get(apiPaths.upcoming())).json().object.upcomingStories as {
      storyId: number;
      releaseDate: string;
    }[];
    expect(upcoming).toBeDefined();
    const res = await get(apiPaths.preview(upcoming!.storyId));
    expect(res.statusCode).toBe(200);
    const body = res.json().object;
    expect(body.story.releaseDate).toBe(upcoming!.releaseDate);
    expect(body.part.opening).toBeUndefined();
    const part = await get(apiPaths.part(upcoming!.storyId, 1), bearer(await t.signup()));
    expect(part.statusCode).toBe(404);
    expect(part.json().message).toBe(STORY_MESSAGES.notOutYet);
  });

  it('needs a login to read a part', async () => {
    const res = await get(apiPaths.part(freeText().storyId, 1));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(2);
  });

  it('lets a logged-in reader read every part of a free story, and 404s past the last', async () => {
    const token = await t.signup();
    const story = freeText();
    const source = seed.find((s) => s.title === story.title)!;
    for (let n = 1; n <= story.numberOfparts; n++) {
      const res = await get(apiPaths.part(story.storyId, n), bearer(token));
      if (source.episodes[n - 1]!.membersOnly) {
        expect(res.statusCode).toBe(403);
        continue;
      }
      expect(res.statusCode).toBe(200);
      const { part } = res.json().object;
      expect(part.partNumber).toBe(n);
      // Stored as HTML by the publishing path; the words are the seed's, joiners and all.
      expect(part.content).toMatch(/^<p>/);
      expect(episodePlainText(part.content)).toBe(source.episodes[n - 1]!.content.normalize('NFC'));
      expect(res.headers['cache-control']).toContain('no-store');
    }
    const past = await get(apiPaths.part(story.storyId, story.numberOfparts + 1), bearer(token));
    expect(past.statusCode).toBe(404);
    expect(past.json().message).toMatch(new RegExp(`has ${story.numberOfparts} parts`));
  });

  it('never sends members-only text to a reader who is not subscribed', async () => {
    const token = await t.signup();
    const story = membersOnly();
    const source = seed.find((s) => s.title === story.title)!;
    const res = await get(apiPaths.part(story.storyId, 1), bearer(token));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 8,
      message: 'This story is for members. Subscribe to read it.',
    });
    expect(res.body).not.toContain(source.episodes[0]!.content.slice(0, 40));
    const preview = (await get(apiPaths.preview(story.storyId), bearer(token))).json().object;
    expect(preview.subscribed).toBe(false);
  });

  it('sends members-only text to a subscriber', async () => {
    const token = await t.login(DEMO_MEMBER, DEMO_PASSWORD);
    const story = membersOnly();
    const res = await get(apiPaths.part(story.storyId, 1), bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().object.subscribed).toBe(true);
    expect(res.json().object.part.content.length).toBeGreaterThan(500);
    // A visitor's cached preview must not be what a member sees.
    expect((await get(apiPaths.preview(story.storyId))).json().object.subscribed).toBe(false);
    expect(
      (await get(apiPaths.preview(story.storyId), bearer(token))).json().object.subscribed,
    ).toBe(true);
  });

  it('still refuses a revoked token on a cached public list', async () => {
    const token = await t.signup();
    expect((await get(apiPaths.listV2(), bearer(token))).statusCode).toBe(200);
    await get('/api/v1/user/logout', bearer(token));
    expect((await get(apiPaths.listV2(), bearer(token))).statusCode).toBe(401);
  });

  it('links the seasons of a series', async () => {
    const seasons = seed.filter((s) => s.series);
    const one = find((s) => s.title === seasons[0]!.title);
    const body = (await get(apiPaths.preview(one.storyId))).json().object;
    expect(body.series).toHaveLength(3);
    expect(body.series.slice(1)).toContain(one.storyId);
  });
});

describe('search', () => {
  const search = async (q: string) =>
    ((await get(apiPaths.search(q))).json().object.stories as StoryListItem[]).map((s) => s.title);

  it('finds English stories by title, by a word of the text, by prefix and despite a typo', async () => {
    const lantern = seed.find((s) => s.title.includes('Lantern'))!.title;
    expect(await search('lantern')).toContain(lantern);
    expect(await search('lant')).toContain(lantern);
    expect(await search('lantren keeper')).toContain(lantern);
    const monsoon = await search('monsoon');
    expect(monsoon.length).toBeGreaterThanOrEqual(2);
    expect(
      monsoon.every(
        (title) =>
          seed.find((s) => s.title === title)!.series?.key === 'monsoon-house' ||
          seed.find((s) => s.title === title)!.episodes.some((e) => /monsoon/i.test(e.content)),
      ),
    ).toBe(true);
  });

  it('finds a Sinhala story whether the word is typed with or without its zero-width joiner', async () => {
    const withZwj = await search('ශ්‍රී');
    const without = await search('ශ්රී');
    expect(withZwj.length).toBeGreaterThan(0);
    expect(without).toEqual(withZwj);
    const sinhalaTitle = seed.find(
      (s) => s.language === 'sinhala' && s.title.includes('ශ්‍රී'),
    )!.title;
    expect(withZwj).toContain(sinhalaTitle);
  });

  it('finds stories by author name', async () => {
    const story = all.find((s) => s.language === 'english')!;
    const surname = story.author.name.split(' ').pop()!;
    const titles = await search(surname);
    expect(titles).toContain(story.title);
  });

  it('answers an empty list, not an error, for nonsense and for query syntax', async () => {
    expect(await search('zzqqxxyy')).toEqual([]);
    const res = await get(apiPaths.search("a & b | !(c:*) '"));
    expect(res.statusCode).toBe(200);
  });
});
