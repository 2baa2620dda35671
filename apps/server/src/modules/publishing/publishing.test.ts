import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { CATEGORIES } from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { DEMO_PASSWORD } from '../../db/seed/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOB_POLL_SECONDS: '1' });
});
afterAll(() => t.close());

let seq = 0;
/** A fresh reader who registers as an author; answers their token and author id. */
async function newAuthor(name = `Writer ${Date.now().toString(36)} ${++seq}`) {
  const token = await t.signup('Writer');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/author/register/',
    headers: bearer(token),
    payload: { name, bio: 'Writes at night.' },
  });
  expect(res.statusCode).toBe(200);
  return { token: res.json().object.accesstoken as string, authorId: res.json().object.authorId };
}

const story = (over: Record<string, unknown> = {}) => ({
  title: `Story ${++seq}`,
  description: 'A test story.',
  language: 'english',
  kind: 0,
  category: 'mystery',
  membersOnly: false,
  ongoing: true,
  ...over,
});

const postStory = (token: string | null, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/author/publish/story/webapp',
    headers: token ? bearer(token) : {},
    payload: { story: body },
  });

const postEpisode = (token: string | null, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/author/publish/episode/webapp',
    headers: token ? bearer(token) : {},
    payload: { episode: body },
  });

async function createStory(token: string, over: Record<string, unknown> = {}) {
  const res = await postStory(token, story(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.storyId as number;
}

async function saveEpisode(token: string, body: Record<string, unknown>) {
  const res = await postEpisode(token, { title: 'Part', content: '<p>Words.</p>', ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object as { episodeId: number; partNumber: number | null; status: string };
}

const get = (url: string, token?: string) =>
  t.app.inject({ url, headers: token ? bearer(token) : {} });

const part = (storyId: number, n: number, token: string) =>
  get(`/api/v1/story/${storyId}/part/number/${n}`, token);

const newest = async () =>
  (await get('/api/v1/story/listV2/?sortBy=new&page=1')).json().object.stories as {
    storyId: number;
    numberOfparts: number;
  }[];

const search = async (q: string) =>
  (
    (await get(`/api/v1/story/search/?query=${encodeURIComponent(q)}`)).json().object.stories as {
      storyId: number;
    }[]
  ).map((s) => s.storyId);

const eventsFor = async (episodeId: number) =>
  Number(
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from events where type = 'episode.published'
          and (payload::jsonb ->> 'episodeId')::int = ${episodeId}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n,
  );

const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
};

describe('becoming an author', () => {
  it('registers a reader and the fresh token says author', async () => {
    const token = await t.signup();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      headers: bearer(token),
      payload: { name: '  Kamala   Perera  ', bio: 'Poems and short stories.' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json().object;
    expect(body).toMatchObject({ appId: 'APP_KATHAMALA', keyword: 'REG KATHAMALA' });
    expect(decodeJwt(body.accesstoken)).toMatchObject({ author: true });
    const page = (await get(`/api/v1/author/${body.authorId}/story/list/`)).json().object;
    expect(page.author).toEqual({
      authorId: body.authorId,
      name: 'Kamala Perera',
      bio: 'Poems and short stories.',
    });

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      headers: bearer(body.accesstoken),
      payload: { name: 'Someone Else' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already an author/);
  });

  it('refuses a taken name (case and joiners aside), a short one, and visitors', async () => {
    const token = await t.signup();
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      headers: bearer(token),
      payload: { name: 'ASHAN JAYASEKERA' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/another author/i);
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      headers: bearer(token),
      payload: { name: ' x ' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe("'name' must be 2 to 60 characters long.");
    const visitor = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      payload: { name: 'Visitor Person' },
    });
    expect(visitor.statusCode).toBe(401);
    // Nothing was half-written: the reader can still register.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/author/register/',
      headers: bearer(token),
      payload: { name: 'Brand New Name' },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('writing a story', () => {
  it('refuses bad fields with the field named, and writes nothing', async () => {
    const { token } = await newAuthor();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: undefined }, "'title' is required to create a story."],
      [{ title: '   ' }, "'title' must not be empty."],
      [{ title: 'x'.repeat(121) }, "'title' must be 1 to 120 characters long."],
      [{ description: 'y'.repeat(2001) }, "'description' must be at most 2000 characters long."],
      [{ language: 'tamil' }, "'story.language' must be one of: sinhala, english."],
      [{ kind: 1 }, "'story.kind' must be one of: 0, 2, 3."],
      [
        { category: 'cooking' },
        `'category' must be one of: ${CATEGORIES.map((c) => c.slug).join(', ')}.`,
      ],
      [{ releaseDate: 'tomorrow' }, "'story.releaseDate' is not in the expected format."],
      [{ isbn: '123' }, "'isbn' is not a field this request accepts."],
    ];
    for (const [over, message] of cases) {
      const res = await postStory(token, story(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json()).toEqual({ code: 1, message });
    }
    const own = (await get('/api/v1/author/story/list/webapp', token)).json().object.stories;
    expect(own).toEqual([]);
  });

  it('lets only authors write, and only the story’s own author change it', async () => {
    const reader = await t.signup();
    expect((await postStory(reader, story())).statusCode).toBe(403);
    expect((await postStory(null, story())).statusCode).toBe(401);

    const owner = await newAuthor();
    const other = await newAuthor();
    const storyId = await createStory(owner.token);
    const { episodeId } = await saveEpisode(owner.token, { storyId, status: 'draft' });

    const attempts = [
      await postStory(other.token, { storyId, title: 'Mine now' }),
      await postEpisode(other.token, { storyId, title: 'x', content: 'y', status: 'published' }),
      await postEpisode(other.token, {
        storyId,
        episodeId,
        title: 'x',
        content: 'y',
        status: 'published',
      }),
      await get(`/api/v1/author/episodes/${storyId}/webapp`, other.token),
      await get(`/api/v1/author/episode/${episodeId}/webapp`, other.token),
      await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/author/episode/${episodeId}/webapp`,
        headers: bearer(other.token),
      }),
      await get(`/api/v1/author/episodes/${storyId}/webapp`, reader),
    ];
    for (const res of attempts) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toMatch(/another author|Only authors/);
    }
    expect((await get(`/api/v1/author/episodes/${storyId}/webapp`)).statusCode).toBe(401);
    const mine = (await get(`/api/v1/author/episode/${episodeId}/webapp`, owner.token)).json();
    expect(mine.object.episode).toMatchObject({
      title: 'Part',
      status: 'draft',
      partNumber: null,
      words: 1,
    });
  });

  it('updates only the fields given', async () => {
    const { token } = await newAuthor();
    const storyId = await createStory(token, { title: 'First title', category: 'romance' });
    const res = await postStory(token, { storyId, ongoing: false });
    expect(res.statusCode).toBe(200);
    const own = (await get('/api/v1/author/story/list/webapp', token)).json().object.stories;
    expect(own[0]).toMatchObject({
      storyId,
      title: 'First title',
      category: 'romance',
      ongoing: false,
      status: 'draft',
    });
  });
});

describe('what readers see', () => {
  it('keeps drafts out of every public call until an episode is published', async () => {
    const { token, authorId } = await newAuthor();
    const reader = await t.signup();
    const storyId = await createStory(token, { title: 'Zanzibarquill secret diary' });
    await saveEpisode(token, {
      storyId,
      title: 'Draft one',
      content: '<p>The word snorkelmoth lives here.</p>',
      status: 'draft',
    });

    expect((await newest()).map((s) => s.storyId)).not.toContain(storyId);
    expect(await search('zanzibarquill')).toEqual([]);
    expect(await search('snorkelmoth')).toEqual([]);
    expect((await get(`/api/v1/story/${storyId}/preview/`)).statusCode).toBe(404);
    expect((await part(storyId, 1, reader)).statusCode).toBe(404);
    const authorPage = (await get(`/api/v1/author/${authorId}/story/list/`)).json().object;
    expect(authorPage.stories).toEqual([]);
    expect((await get('/sitemap.xml')).body).not.toContain(`/details/${storyId}/`);

    const { partNumber } = await saveEpisode(token, {
      storyId,
      title: 'Out now',
      content: '<p>A <b>bold</b> word: kingfisherlamp.<script>alert(1)</script></p>',
      status: 'published',
    });
    expect(partNumber).toBe(1);
    const listed = (await newest()).find((s) => s.storyId === storyId);
    expect(listed?.numberOfparts).toBe(1);
    expect(await search('zanzibarquill')).toEqual([storyId]);
    expect(await search('kingfisherlamp')).toEqual([storyId]);
    // The draft's words never reach the index, nor markup.
    expect(await search('snorkelmoth')).toEqual([]);
    expect(await search('strong')).not.toContain(storyId);
    const read = (await part(storyId, 1, reader)).json().object;
    expect(read.part.content).toBe('<p>A <strong>bold</strong> word: kingfisherlamp.</p>');
    expect(read.numberOfparts).toBe(1);
    expect((await get('/sitemap.xml')).body).toContain(`/details/${storyId}/`);
  });

  it('never renumbers what readers have seen', async () => {
    const { token } = await newAuthor();
    const reader = await t.signup();
    const storyId = await createStory(token);
    const a = await saveEpisode(token, { storyId, title: 'A', status: 'published' });
    const b = await saveEpisode(token, { storyId, title: 'B', status: 'published' });
    const c = await saveEpisode(token, { storyId, title: 'C', status: 'published' });
    expect([a.partNumber, b.partNumber, c.partNumber]).toEqual([1, 2, 3]);

    // Unpublishing B leaves a gap; C is still part 3.
    await saveEpisode(token, { storyId, episodeId: b.episodeId, title: 'B', status: 'draft' });
    expect((await part(storyId, 2, reader)).statusCode).toBe(404);
    const third = (await part(storyId, 3, reader)).json().object;
    expect(third.part.title).toBe('C');
    expect(third.numberOfparts).toBe(3);

    // Back out, B is part 2 again; editing A keeps part 1.
    const back = await saveEpisode(token, {
      storyId,
      episodeId: b.episodeId,
      title: 'B again',
      status: 'published',
    });
    expect(back.partNumber).toBe(2);
    await saveEpisode(token, { storyId, episodeId: a.episodeId, title: 'A2', status: 'published' });
    expect((await part(storyId, 1, reader)).json().object.part.title).toBe('A2');

    // Deleting C frees nothing: the next episode is part 4.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/author/episode/${c.episodeId}/webapp`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    expect((await part(storyId, 1, reader)).json().object.numberOfparts).toBe(2);
    const d = await saveEpisode(token, { storyId, title: 'D', status: 'published' });
    expect(d.partNumber).toBe(4);
    expect((await part(storyId, 3, reader)).statusCode).toBe(404);
    expect((await part(storyId, 4, reader)).json().object.part.title).toBe('D');
  });

  it('writes one episode.published event per episode, whatever happens after', async () => {
    const { token } = await newAuthor();
    const storyId = await createStory(token);
    const e = await saveEpisode(token, { storyId, status: 'published' });
    expect(await eventsFor(e.episodeId)).toBe(1);
    await saveEpisode(token, {
      storyId,
      episodeId: e.episodeId,
      title: 'Edited',
      status: 'published',
    });
    await saveEpisode(token, { storyId, episodeId: e.episodeId, title: 'Edited', status: 'draft' });
    await saveEpisode(token, {
      storyId,
      episodeId: e.episodeId,
      title: 'Edited',
      status: 'published',
    });
    expect(await eventsFor(e.episodeId)).toBe(1);
    const draft = await saveEpisode(token, { storyId, status: 'draft' });
    expect(await eventsFor(draft.episodeId)).toBe(0);
  });

  it('lists a story with a release date ahead under upcoming, not among the stories', async () => {
    const { token } = await newAuthor();
    const releaseDate = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    const storyId = await createStory(token, { releaseDate });
    await saveEpisode(token, { storyId, status: 'published' });
    const upcoming = (await get('/api/v1/story/list/upcoming/')).json().object.upcomingStories;
    expect(upcoming.map((s: { storyId: number }) => s.storyId)).toContain(storyId);
    expect((await newest()).map((s) => s.storyId)).not.toContain(storyId);
    const own = (await get('/api/v1/author/story/list/webapp', token)).json().object.stories;
    expect(own[0]).toMatchObject({ storyId, status: 'upcoming' });
    expect((await part(storyId, 1, await t.signup())).statusCode).toBe(404);
  });
});

describe('episode rules', () => {
  it('refuses bad episodes with the field named', async () => {
    const { token } = await newAuthor();
    const storyId = await createStory(token);
    const soon = new Date(Date.now() + 60_000).toISOString();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ title: '' }, 400, "'title' must not be empty."],
      [{ title: 'x'.repeat(121) }, 400, "'title' must be 1 to 120 characters long."],
      [{ status: 'live' }, 400, "'episode.status' must be one of: draft, published, scheduled."],
      [{ status: 'scheduled' }, 400, "'publishAt' is required to schedule an episode."],
      [
        { status: 'scheduled', publishAt: new Date(Date.now() - 1000).toISOString() },
        400,
        "'publishAt' must be in the future.",
      ],
      [
        { content: '   ', status: 'published' },
        400,
        "'content' must not be empty to publish an episode.",
      ],
      [{ content: '<p>' + 'ක'.repeat(70_000) + '</p>' }, 400, "'content' must be at most 200 KB."],
      [{ storyId: 999999 }, 404, 'We could not find that story.'],
      [
        { episodeId: 999999, publishAt: soon },
        404,
        'We could not find that episode in this story.',
      ],
    ];
    for (const [over, status, message] of cases) {
      const res = await postEpisode(token, {
        storyId,
        title: 'Part',
        content: '<p>Words.</p>',
        status: 'draft',
        ...over,
      });
      expect(res.statusCode, JSON.stringify(over).slice(0, 80)).toBe(status);
      expect(res.json()).toEqual({ code: status === 404 ? 4 : 1, message });
    }
    const huge = await postEpisode(token, {
      storyId,
      title: 'Part',
      content: 'x'.repeat(400 * 1024),
      status: 'draft',
    });
    expect(huge.statusCode).toBe(413);
    const own = (await get(`/api/v1/author/episodes/${storyId}/webapp`, token)).json().object;
    expect(own.episodes).toEqual([]);
  });

  it('publishes a scheduled episode on time, with no request', async () => {
    const { token } = await newAuthor();
    const reader = await t.signup();
    const storyId = await createStory(token);
    const publishAt = new Date(Date.now() + 2_000).toISOString();
    const e = await saveEpisode(token, { storyId, title: 'Later', status: 'scheduled', publishAt });
    expect(e).toMatchObject({ status: 'scheduled', partNumber: null });
    expect((await part(storyId, 1, reader)).statusCode).toBe(404);
    expect((await newest()).map((s) => s.storyId)).not.toContain(storyId);

    const out = await waitFor(async () => (await part(storyId, 1, reader)).statusCode === 200);
    expect(out).toBe(true);
    expect((await part(storyId, 1, reader)).json().object.part.title).toBe('Later');
    const own = (await get(`/api/v1/author/episodes/${storyId}/webapp`, token)).json().object;
    expect(own.episodes[0]).toMatchObject({ status: 'published', partNumber: 1, publishAt: null });
    expect(await eventsFor(e.episodeId)).toBe(1);
    expect((await newest()).map((s) => s.storyId)).toContain(storyId);
  });

  it('leaves an episode alone when its schedule was withdrawn', async () => {
    const { token } = await newAuthor();
    const storyId = await createStory(token);
    const publishAt = new Date(Date.now() + 1_500).toISOString();
    const e = await saveEpisode(token, { storyId, status: 'scheduled', publishAt });
    await saveEpisode(token, { storyId, episodeId: e.episodeId, status: 'draft' });
    await new Promise((r) => setTimeout(r, 4_000));
    const own = (await get(`/api/v1/author/episodes/${storyId}/webapp`, token)).json().object;
    expect(own.episodes[0]).toMatchObject({ status: 'draft', partNumber: null });
    expect(await eventsFor(e.episodeId)).toBe(0);
  });
});

describe('series', () => {
  it('makes a second story the next season, and lists public seasons in order', async () => {
    const { token } = await newAuthor();
    const first = await createStory(token, { title: 'River Season One' });
    const second = await createStory(token, { title: 'River Season Two', seasonOf: first });
    await saveEpisode(token, { storyId: first, status: 'published' });
    const own = (await get('/api/v1/author/story/list/webapp', token)).json().object.stories;
    const seriesId = own.find((s: { storyId: number }) => s.storyId === first).seriesId;
    expect(seriesId).toBeGreaterThan(0);
    expect(own.find((s: { storyId: number }) => s.storyId === second)).toMatchObject({
      seriesId,
      season: 2,
    });

    const seasons = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/series/season/list/',
          payload: { seriesId },
        })
      )
        .json()
        .object.list.map((s: { storyId: number; season: number }) => [s.storyId, s.season]);
    // Season two has no episode out yet: only season one is public.
    expect(await seasons()).toEqual([[first, 1]]);
    await saveEpisode(token, { storyId: second, status: 'published' });
    expect(await seasons()).toEqual([
      [first, 1],
      [second, 2],
    ]);
    const details = (await get(`/api/v1/story/${second}/preview/`)).json().object;
    expect(details.series).toEqual([seriesId, first, second]);

    const other = await newAuthor();
    const steal = await postStory(other.token, story({ seriesId }));
    expect(steal.statusCode).toBe(403);
    expect(steal.json().message).toBe('That series belongs to another author.');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/series/season/list/',
      payload: { seriesId: 999999 },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('the demo seed', () => {
  it('came through the publishing path: numbered parts, HTML text, an author of each story', async () => {
    const token = await t.login('ashan@demo.kathamala.lk', DEMO_PASSWORD);
    const own = (await get('/api/v1/author/story/list/webapp', token)).json().object.stories;
    expect(own.length).toBeGreaterThan(1);
    const pub = own.find((s: { status: string }) => s.status === 'public');
    const eps = (await get(`/api/v1/author/episodes/${pub.storyId}/webapp`, token)).json().object;
    // Word counts are kept with each episode; a demo episode is a few hundred words.
    for (const e of eps.episodes) expect(e.words).toBeGreaterThan(200);
    expect(eps.episodes.map((e: { partNumber: number }) => e.partNumber)).toEqual(
      eps.episodes.map((_: unknown, i: number) => i + 1),
    );
    const text = (
      await get(`/api/v1/author/episode/${eps.episodes[0].episodeId}/webapp`, token)
    ).json().object.episode.content;
    expect(text.startsWith('<p>')).toBe(true);
  });
});
