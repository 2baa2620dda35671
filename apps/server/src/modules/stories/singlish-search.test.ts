import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiPaths, SINGLISH_KEY_VERSION, type StoryListItem } from '@kathamala/domain';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { storiesRepo, toPrefixQuery } from './repo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const search = async (q: string) => {
  const res = await t.app.inject({ url: apiPaths.search(q) });
  expect(res.statusCode).toBe(200);
  return res.json().object.stories as StoryListItem[];
};
const titles = async (q: string) => (await search(q)).map((s) => s.title);

// Titles and authors of the demo seed (apps/server/src/db/seed/content/si).
const WALAWWA = 'ශ්‍රී පාද වලව්ව';
const WEWA = 'නුවර වැව';
const ATHTHAMMA = 'ආත්තම්මා කියූ කතා';
const KALU_GANGA = 'කළු ගඟේ රුවල්';
const HOLMAN = 'හොල්මන් කඩවත';
const RAJASINHA = 'රාජසිංහ යුගය';
const NILMINI = 'නිල්මිණි රත්නායක';
const SAMAN = 'සමන් විජේසිංහ';

describe('Singlish search', () => {
  it.each([
    // Typed the way people type: vowel length, aspirates, w/v, th/t, d/dh, ng.
    ['walawwa', WALAWWA],
    ['sri pada walawwa', WALAWWA],
    ['shree paadha walauwa', WALAWWA],
    ['nuwara wewa', WEWA],
    ['nuvara vava', WEWA],
    ['aththamma', ATHTHAMMA],
    ['atthammaa kiyu kathaa', ATHTHAMMA],
    ['kalu gange', KALU_GANGA],
    ['kalu ganga ruwal', KALU_GANGA],
    ['holman kadawatha', HOLMAN],
    ['holman kadavata', HOLMAN],
    ['rajasinha', RAJASINHA],
    ['raajasinha yugaya', RAJASINHA],
  ])('%s finds %s by its title, first', async (query, title) => {
    const found = await titles(query);
    expect(found[0], `${query} -> ${found.join(' | ')}`).toBe(title);
  });

  it.each([
    // One letter missing, doubled or changed.
    ['holmn kadawatha', HOLMAN],
    ['rajasingha', RAJASINHA],
    ['nuwra wewa', WEWA],
  ])('%s (a typo) still finds %s', async (query, title) => {
    expect(await titles(query)).toContain(title);
  });

  it.each([
    ['nilmini', NILMINI],
    ['nilmini rathnayaka', NILMINI],
    ['ratnayake', NILMINI],
    ['saman wijesinghe', SAMAN],
    ['vijesinha', SAMAN],
  ])('%s finds the stories of %s by the author name', async (query, author) => {
    const found = await search(query);
    expect(found.length, query).toBeGreaterThan(0);
    expect(found[0]!.author.name, query).toBe(author);
  });

  it('finds a Sinhala story by a Sinhala word typed with another vowel length', async () => {
    // කඩාවත and අත්තම්මා are not the words of the titles; their keys are.
    expect(await titles('කඩාවත')).toContain(HOLMAN);
    expect((await titles('අත්තම්මා'))[0]).toBe(ATHTHAMMA);
  });

  it('ranks English stories first for an English query that matches English text', async () => {
    // 'galle' is in an English title and, as ගාල්ල, in Sinhala episodes: both are found.
    const galle = await search('galle');
    expect(galle[0]!.title).toContain('Galle');
    expect(galle.some((s) => s.language === 'sinhala')).toBe(true);
    const firstSinhala = galle.findIndex((s) => s.language === 'sinhala');
    expect(galle.slice(0, firstSinhala).every((s) => s.language === 'english')).toBe(true);
    expect(firstSinhala).toBeGreaterThanOrEqual(2);
    for (const q of ['monsoon', 'lantern keeper', 'the lantern'])
      expect((await search(q))[0]!.language, q).toBe('english');
  });

  it('ranks Sinhala stories first for a Singlish query, even when English text has the word', async () => {
    // 'kalu' is in English episode text too (the Kalu Ganga); the Singlish title outranks it.
    const kalu = await search('kalu');
    expect(kalu[0]!.title).toBe(KALU_GANGA);
    expect(kalu.some((s) => s.language === 'english')).toBe(true);
  });

  it('matches a Singlish key within one title word, never across two', async () => {
    // 'kilaya' shares "aya", "ya ", "  k" and " ki" with 'puskolaya kisi' across its two words
    // (word_similarity 0.71 over the whole title); within one word it is like 'kilalan' (0.57).
    const db = t.database.db;
    const repo = storiesRepo(db);
    const ids: number[] = [];
    try {
      for (const title of ['පුස්කොළය කිසි', 'කීළලං'])
        ids.push(
          Number(
            (
              (await db.execute(sql`
                insert into stories (author_id, title, description, language, category,
                  number_of_parts, last_part_number)
                select (select min(id) from authors), ${title}, '', 'sinhala',
                  (select min(slug) from categories), 1, 1
                returning id`)) as unknown as { rows: { id: number }[] }
            ).rows[0]!.id,
          ),
        );
      for (const id of ids) await repo.refreshSearchDoc(id);
      const found = (await repo.search('kilaya', 50, 0)).items.map((s) => s.title);
      expect(found).toContain('කීළලං');
      expect(found).not.toContain('පුස්කොළය කිසි');
    } finally {
      for (const id of ids) await db.execute(sql`delete from stories where id = ${id}`);
    }
  });

  it.each([
    // Casual spelling doubles long vowels: ee for ී (මීදුම), the typing scheme's ee is ේ (හපුතලේ).
    ['meedum', 'midum'],
    ['meeduma', 'miduma'],
    ['haputhalee', 'haputale'],
  ])('%s finds what %s finds', async (doubled, single) => {
    const found = await titles(doubled);
    expect(found.length, doubled).toBeGreaterThan(0);
    expect(found, doubled).toEqual(await titles(single));
  });

  it('recomputes keys stored by an older folding (SINGLISH_KEY_VERSION), and only those', async () => {
    // Straight to the repository: the route's answers are cached for a few seconds.
    const db = t.database.db;
    const repo = storiesRepo(db);
    const found = async (q: string) => (await repo.search(q, 10, 0)).items.map((s) => s.title);
    const idOf = async (title: string) =>
      Number(
        (
          (await db.execute(sql`select id from stories where title = ${title}`)) as unknown as {
            rows: { id: number }[];
          }
        ).rows[0]!.id,
      );
    const older = await idOf(HOLMAN);
    const current = await idOf(WALAWWA);
    // Keys as an older version left them (here: none), and a current row with the same gap.
    await db.execute(sql`
      update stories set singlish_doc = ''::tsvector, title_key = '',
        singlish_key_version = case when id = ${older} then 1 else ${SINGLISH_KEY_VERSION} end
      where id in (${older}, ${current})`);
    await db.execute(sql`update authors set singlish_key_version = 1 where name = ${SAMAN}`);
    expect(await found('meedum')).not.toContain(HOLMAN);
    await repo.backfillSinglishKeys();
    expect(await found('meedum')).toContain(HOLMAN);
    expect(await found('holman kadawatha')).toContain(HOLMAN);
    expect(await found('sri pada walawwa')).not.toContain(WALAWWA);
    const versions = (await db.execute(sql`
      select (select min(singlish_key_version) from stories)::int as s,
        (select min(singlish_key_version) from authors)::int as a`)) as unknown as {
      rows: { s: number; a: number }[];
    };
    expect(versions.rows[0]).toEqual({ s: SINGLISH_KEY_VERSION, a: SINGLISH_KEY_VERSION });
    await repo.refreshSearchDoc(current);
    expect(await found('sri pada walawwa')).toContain(WALAWWA);
  });

  it('leaves out corrections the typed word matches as a prefix already', () => {
    const fixes = new Map([['ඔවුන්', ['ඔවුන්ට', 'ඔවුනට']]]);
    expect(toPrefixQuery('ඔවුන්', fixes)).toBe("('ඔවුන්':* | 'ඔවුනට')");
    expect(toPrefixQuery('ඔවුන්', new Map([['ඔවුන්', ['ඔවුන්ට']]]))).toBe("'ඔවුන්':*");
  });

  it('finds nothing for nonsense', async () => {
    expect(await titles('zzqqxxyy')).toEqual([]);
    expect(await titles('qwxzkv')).toEqual([]);
  });

  it('fills keys for stories and authors saved before the keys existed', async () => {
    // Straight to the repository: the route's answers are cached for a few seconds.
    const db = t.database.db;
    const repo = storiesRepo(db);
    const found = async (q: string) => (await repo.search(q, 10, 0)).items;
    await db.execute(
      sql`update stories set title_key = null, description_key = null, singlish_doc = null`,
    );
    await db.execute(sql`update authors set name_key = null`);
    expect((await found('holman kadawatha')).map((s) => s.title)).not.toContain(HOLMAN);
    await repo.backfillSinglishKeys();
    const left = (await db.execute(
      sql`select (select count(*) from stories where title_key is null or singlish_doc is null)::int
        + (select count(*) from authors where name_key is null)::int as n`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(left.rows[0]!.n)).toBe(0);
    expect((await found('holman kadawatha'))[0]!.title).toBe(HOLMAN);
    expect((await found('vijesinha'))[0]!.author.name).toBe(SAMAN);
  });
});
