import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, type StoryListItem } from '@kathamala/domain';
import { bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { allowedTypos, corrections, swapVariants, typoDistance } from './typos.ts';

describe('typo rules', () => {
  it('counts a swap of neighbours as one typo, as Meilisearch and Typesense do', () => {
    expect(typoDistance('latnern', 'lantern', 2)).toBe(1);
    expect(typoDistance('lantren', 'lantern', 2)).toBe(1);
    expect(typoDistance('lantrn', 'lantern', 2)).toBe(1);
    expect(typoDistance('lanterns', 'lantern', 2)).toBe(1);
    expect(typoDistance('lamtern', 'lantern', 2)).toBe(1);
    expect(typoDistance('latnren', 'lantern', 2)).toBe(2);
    expect(typoDistance('abc', 'xyz', 1)).toBe(2);
    // Code points: a Sinhala vowel sign is one letter.
    expect(typoDistance('රාසජිංහ', 'රාජසිංහ', 2)).toBe(1);
  });

  it('allows none for 1-4 letters, one for 5-8, two for 9 or more', () => {
    expect([1, 4, 5, 8, 9, 20].map(allowedTypos)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(corrections('latnern', ['lantern', 'lanterns', 'pattern', 'latnern'])).toEqual([
      'lantern',
    ]);
    expect(corrections('lighthouse', ['ligthohuse', 'lighthouses', 'light'])).toEqual([
      'lighthouses',
      'ligthohuse',
    ]);
  });

  it('makes each neighbour swap once', () => {
    expect(swapVariants('abca')).toEqual(['baca', 'acba', 'abac']);
    expect(swapVariants('aab')).toEqual(['aba']);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 300_000);
afterAll(() => t.close());

const search = async (q: string) => {
  const res = await t.app.inject({ url: apiPaths.search(q) });
  expect(res.statusCode).toBe(200);
  return res.json().object.stories as StoryListItem[];
};
const titles = async (q: string) => (await search(q)).map((s) => s.title);

const LANTERN = 'The Lantern Keeper of Galle Fort';

/** Saves an episode through the publishing API and answers its id. */
const saveEpisode = async (
  token: string,
  episode: { storyId: number; episodeId?: number; title: string; content: string; status: string },
) => {
  const res = await t.app.inject({
    method: 'POST',
    url: apiPaths.publishEpisode(),
    headers: bearer(token),
    payload: { episode },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().object.episodeId as number;
};

const inVocabulary = async (word: string) =>
  (await t.rows<{ stories: number }>(sql`select stories from search_words where word = ${word}`))[0]
    ?.stories ?? 0;

describe('search with typos', () => {
  it('Latnern finds the Lantern story (a swap is one typo)', async () => {
    expect(await titles('Latnern')).toContain(LANTERN);
    expect((await titles('latnern keeper'))[0]).toBe(LANTERN);
    expect(await titles('keeper of glale fort')).toContain(LANTERN);
  });

  describe('on words of a story of our own', () => {
    let token: string;
    let storyId: number;
    let title: string;
    beforeAll(async () => {
      ({ token } = await t.newAuthor('Typo'));
      title = 'Marvolo and the Xylandrius';
      storyId = await t.createStory(token, { title, description: 'Of the vrok birds.' });
      await saveEpisode(token, {
        storyId,
        title: 'One',
        content: '<p>The quindle sang under the ගම්මානය lamps.</p>',
        status: 'published',
      });
    }, 120_000);

    it('allows one typo in a word of 5-8 letters, not two', async () => {
      expect(await titles('mravolo')).toContain(title); // swap
      expect(await titles('marvola')).toContain(title); // change
      expect(await titles('marvlo')).toContain(title); // letter missing
      expect(await titles('quindel')).toContain(title); // episode text, swap
      expect(await titles('mravoll')).not.toContain(title);
    });

    it('allows two typos in a word of 9 letters or more, not three', async () => {
      expect(await titles('xlyandrisu')).toContain(title);
      expect(await titles('xylandrus')).toContain(title);
      expect(await titles('xlyandrsiu')).not.toContain(title);
    });

    it('allows none in a word of 1-4 letters', async () => {
      expect(await titles('vrok')).toContain(title);
      expect(await titles('vrko')).not.toContain(title);
      expect(await titles('vork')).not.toContain(title);
    });

    it('finds a Sinhala word typed with two letters swapped', async () => {
      // ගම්මානය: ග ම ් ම ා න ය, seven code points; ම and ා swapped is one typo.
      expect(await titles('ගම්මානය')).toContain(title);
      expect(await titles('ගම්ාමනය')).toContain(title);
    });

    it('ranks stories that match as typed above corrected ones', async () => {
      // 'marvola' is a word of its own in a second story: typed exactly, that story comes first;
      // the first story follows through the correction marvola -> marvolo.
      const other = await t.createStory(token, {
        title: 'The Marvola Letters',
        description: 'Letters.',
      });
      await saveEpisode(token, {
        storyId: other,
        title: 'One',
        content: '<p>Paper.</p>',
        status: 'published',
      });
      const found = await titles('marvola');
      expect(found[0]).toBe('The Marvola Letters');
      expect(found).toContain(title);
      const again = await titles('marvolo');
      expect(again[0]).toBe(title);
      expect(again).toContain('The Marvola Letters');
    });
  });

  it('keeps the vocabulary to published words: drafts never, withdrawn episodes leave', async () => {
    const { token } = await t.newAuthor('Vocab');
    const storyId = await t.createStory(token, { title: 'Plain title', description: 'Plain.' });
    const published = await saveEpisode(token, {
      storyId,
      title: 'One',
      content: '<p>The frobnicator hummed.</p>',
      status: 'published',
    });
    const draft = await saveEpisode(token, {
      storyId,
      title: 'Two',
      content: '<p>The wuzzlecrank waited.</p>',
      status: 'draft',
    });
    expect(await inVocabulary('frobnicator')).toBe(1);
    expect(await inVocabulary('wuzzlecrank')).toBe(0);
    expect(await titles('wuzzlecrank')).toEqual([]);
    expect(await titles('wuzzelcrank')).toEqual([]);
    expect(await titles('frobincator')).toContain('Plain title');

    // Publishing the draft brings its words; withdrawing the first takes its words away.
    await saveEpisode(token, {
      storyId,
      episodeId: draft,
      title: 'Two',
      content: '<p>The wuzzlecrank waited.</p>',
      status: 'published',
    });
    expect(await inVocabulary('wuzzlecrank')).toBe(1);
    expect(await titles('wuzzelcrank')).toContain('Plain title');
    await saveEpisode(token, {
      storyId,
      episodeId: published,
      title: 'One',
      content: '<p>The frobnicator hummed.</p>',
      status: 'draft',
    });
    expect(await inVocabulary('frobnicator')).toBe(0);
    expect(await titles('frobincator')).not.toContain('Plain title');
    // A word two stories share is counted twice and stays while one still has it.
    expect(await inVocabulary('plain')).toBeGreaterThanOrEqual(1);
    const [counted] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from search_words where stories < 1`,
    );
    expect(Number(counted!.n)).toBe(0);
  });

  it('counts every word the same as a rebuild from the search documents would', async () => {
    const [diff] = await t.rows<{ wrong: number }>(sql`
      with truth as (
        select w, count(*)::int as n from stories, unnest(tsvector_to_array(search_doc)) as w
        where search_doc is not null and char_length(w) >= 4 group by w)
      select count(*)::int as wrong from truth full join search_words v on v.word = truth.w
      where v.word is null or truth.w is null or v.stories <> truth.n`);
    expect(Number(diff!.wrong)).toBe(0);
  });
});

describe('the search answer when cached', () => {
  it('answers a repeated query from the response cache, and a publish is seen at once', async () => {
    const { token } = await t.newAuthor('Cache');
    const storyId = await t.createStory(token, { title: 'Cached words', description: 'Plain.' });
    await saveEpisode(token, {
      storyId,
      title: 'One',
      content: '<p>Sky.</p>',
      status: 'published',
    });
    const url = apiPaths.search('zorblaxian');
    const first = await t.app.inject({ url });
    expect(first.json().object.stories).toEqual([]);
    // A public story changed behind the service's back (no invalidation) is not seen: cached.
    await t.rows(sql`update stories set search_doc = to_tsvector('simple', 'zorblaxian')
      where id = ${storyId}`);
    const cached = await t.app.inject({ url });
    expect(cached.body).toBe(first.body);
    // Publishing clears the cache: the next request sees the story (published text, not a typo).
    await saveEpisode(token, {
      storyId,
      title: 'Two',
      content: '<p>The zorblaxian sky.</p>',
      status: 'published',
    });
    const after = await t.app.inject({ url });
    expect((after.json().object.stories as StoryListItem[]).map((s) => s.title)).toEqual([
      'Cached words',
    ]);
  });
});

describe('search among many matches (read tiers)', () => {
  /** Public stories holding one word, with these reads; deleted again by the caller. */
  const manyStories = async (word: string, reads: number[]) => {
    await t.rows(sql`
      insert into stories (author_id, title, description, language, category, number_of_parts,
        last_part_number, reads, search_doc)
      select (select min(id) from authors), 'Tier ' || r, '', 'english',
        (select min(slug) from categories), 1, 1, r::int, to_tsvector('simple', ${word})
      from jsonb_array_elements_text(${JSON.stringify(reads)}::jsonb) as g(r)`);
  };
  const page = async (q: string, n: number) => {
    const res = await t.app.inject({ url: apiPaths.search(q, n) });
    expect(res.statusCode).toBe(200);
    return res.json().object as { stories: StoryListItem[]; total: number };
  };

  it('keeps the 200 most read, whichever tier holds them', async () => {
    // 10, 20, ..., 2,600 reads: 161 stories of 1,000 reads or more (too few for the first
    // tier), 251 of 100 or more (the second answers); 2,000 + 1..250: the first tier answers.
    const fallThrough = Array.from({ length: 260 }, (_, i) => (i + 1) * 10);
    const firstTier = Array.from({ length: 250 }, (_, i) => 2000 + i + 1);
    try {
      await manyStories('quokkaberry', fallThrough);
      await manyStories('wombatfruit', firstTier);
      for (const [word, reads] of [
        ['quokkaberry', fallThrough],
        ['wombatfruit', firstTier],
      ] as const) {
        const best = [...reads].sort((a, b) => b - a).slice(0, 200);
        const first = await page(word, 1);
        expect(first.total).toBe(200);
        expect(first.stories.map((s) => s.reads)).toEqual(best.slice(0, 12));
        // The last page ends at the 200th most read: no story with fewer reads is offered.
        const last = await page(word, 17);
        expect(last.stories.map((s) => s.reads)).toEqual(best.slice(192, 200));
      }
      // A rare word still finds its only story, through the whole index.
      await manyStories('numbatnut', [3]);
      expect((await page('numbatnut', 1)).stories.map((s) => s.title)).toEqual(['Tier 3']);
    } finally {
      await t.rows(sql`delete from stories where title like 'Tier %' and description = ''`);
    }
  });

  it('keeps the 200 most read of a Singlish title match, whichever title tier holds them', async () => {
    // Stories found by their Singlish title key only (no document): 1..260 reads, 211 of 50 or
    // more (the first title tier answers); 1..240, 191 of 50 and 211 of 30 or more (the second);
    // 1..220, 191 of 30 or more (the whole index).
    const cases = [
      ['kandurela', 260],
      ['moragola', 240],
      ['pitigala', 220],
    ] as const;
    try {
      for (const [key, n] of cases)
        await t.rows(sql`
          insert into stories (author_id, title, description, language, category, number_of_parts,
            last_part_number, reads, title_key)
          select (select min(id) from authors), 'Tier ' || r, '', 'sinhala',
            (select min(slug) from categories), 1, 1, r, ${key}
          from generate_series(1, ${n}) as g(r)`);
      for (const [key, n] of cases) {
        const best = Array.from({ length: 200 }, (_, i) => n - i);
        const first = await page(key, 1);
        expect(first.total).toBe(200);
        expect(first.stories.map((s) => s.reads)).toEqual(best.slice(0, 12));
        const last = await page(key, 17);
        expect(last.stories.map((s) => s.reads)).toEqual(best.slice(192, 200));
      }
    } finally {
      await t.rows(sql`delete from stories where title like 'Tier %' and description = ''`);
    }
  });
});
