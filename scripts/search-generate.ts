// npm run search:generate: fills a PostgreSQL database with stories and episodes of Sinhala and
// English text, so search can be timed at scale (npm run bench:search).
//
// Needs DATABASE_URL (a PostgreSQL database; PGlite is refused: a million episodes there say
// nothing about production). Opens the database through the app's own client (migrations run),
// then writes straight to the tables in multi-row inserts, many rows a statement:
//   1. SEARCH_AUTHORS authors (default 5,000), their names from Sinhala and English name parts;
//   2. SEARCH_STORIES stories (default 100,000; 60 % Sinhala) of SEARCH_PARTS published episodes
//      each (default 10: 1,000,000 episodes) of about SEARCH_EPISODE_WORDS words (default 150);
//   3. each story's search document (the same SQL as publishing), Singlish keys and document
//      (computed here, as publishing computes them), then the vocabulary and ANALYZE.
// The words: every word of the demo stories, drawn by how often the demo text uses it (so 'the',
// 'and', 'ඒ', 'එයා' are everywhere), plus a long tail of made-up words from syllables (each in a
// few stories, as names and rare words are). Deterministic (SEARCH_SEED). Refuses a database
// that already has stories (use a fresh one).
import { sql } from 'drizzle-orm';
import { CATEGORIES, singlishKey } from '@kathamala/domain';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { englishStories } from '../apps/server/src/db/seed/content/stories-en.ts';
import { sinhalaStories } from '../apps/server/src/db/seed/content/stories-si.ts';
import { rebuildVocabulary, searchDocSql } from '../apps/server/src/modules/stories/repo.ts';
import { singlishKeyOf } from '../apps/server/src/modules/stories/singlish-keys.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const AUTHORS = envInt('SEARCH_AUTHORS', 5_000);
const STORIES = envInt('SEARCH_STORIES', 100_000);
const PARTS = envInt('SEARCH_PARTS', 10);
const EPISODE_WORDS = envInt('SEARCH_EPISODE_WORDS', 150);
const SEED = envInt('SEARCH_SEED', 20_261_122);
/** Made-up words per language: the long tail of names and rare words. */
const TAIL_WORDS = envInt('SEARCH_TAIL_WORDS', 60_000);
/** Share of words drawn from the long tail rather than the demo text. */
const TAIL_SHARE = 0.04;
/** Stories a round: one insert of stories, one of their episodes. */
const BATCH = 200;

const url = process.env.DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'search-generate: set DATABASE_URL to a PostgreSQL database (postgres://...). PGlite is not ' +
      'supported: try `bash scripts/with-postgres.sh npm run search:generate`.',
  );
  process.exit(2);
}

const started = Date.now();
const step = (what: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);

/** A small fast PRNG (mulberry32), so two runs make the same data. */
let state = SEED >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let x = state;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

/** Words drawn by weight: a cumulative table searched by bisection. */
const sampler = (counts: Map<string, number>) => {
  const words = [...counts.keys()];
  const cum = new Float64Array(words.length);
  let total = 0;
  words.forEach((w, i) => (cum[i] = total += counts.get(w)!));
  return () => {
    const r = random() * total;
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
};

const LATIN_WORD = /[a-z]+(?:'[a-z]+)?/g;
const SINHALA_WORD = /[\u0D80-\u0DFF\u200C\u200D]+/gu;

/** How often each word appears in the demo stories of one language. */
const countWords = (texts: string[], pattern: RegExp) => {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const w of text.toLowerCase().match(pattern) ?? [])
      counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
};
const demoText = (stories: typeof englishStories) =>
  stories.flatMap((s) => [s.title, s.description, ...s.episodes.map((e) => e.content)]);

/** Made-up words from syllables; the tail is drawn with Zipf weights, so some stay very rare. */
const tail = (syllables: string[], n: number) => {
  const out = new Map<string, number>();
  while (out.size < n) {
    let w = '';
    for (let k = int(2, 4); k > 0; k--) w += pick(syllables);
    if (!out.has(w)) out.set(w, 1 / (out.size + 10));
  }
  return out;
};
const EN_SYLLABLES =
  'ba be bri ca co dra del en fa gar han ith jo ka kel lan lor ma mer nor ost pa per quin ra ros sa sel tam ter ul va ven wyn xan yor zel'.split(
    ' ',
  );
const SI_CONSONANTS = [...'කගචජටඩතදනපබමයරලවසහළණ'];
const SI_SIGNS = ['', 'ා', 'ි', 'ී', 'ු', 'ෙ', 'ො', 'ං'];
const SI_SYLLABLES = SI_CONSONANTS.flatMap((c) => SI_SIGNS.map((v) => c + v));

const english = {
  common: sampler(countWords(demoText(englishStories), LATIN_WORD)),
  rare: sampler(tail(EN_SYLLABLES, TAIL_WORDS)),
};
const sinhala = {
  common: sampler(countWords(demoText(sinhalaStories), SINHALA_WORD)),
  rare: sampler(tail(SI_SYLLABLES, TAIL_WORDS)),
};
type Lang = typeof english;

const word = (lang: Lang) => (random() < TAIL_SHARE ? lang.rare() : lang.common());
const sentence = (lang: Lang, used: Set<string>, words = int(6, 16)) => {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = word(lang);
    used.add(w);
    out.push(w);
  }
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
};
const episodeHtml = (lang: Lang, used: Set<string>) => {
  const paragraphs: string[] = [];
  let words = 0;
  while (words < EPISODE_WORDS) {
    const sentences: string[] = [];
    for (let k = int(2, 5); k > 0 && words < EPISODE_WORDS; k--) {
      const n = int(6, 16);
      words += n;
      sentences.push(sentence(lang, used, n));
    }
    paragraphs.push(`<p>${sentences.join(' ')}</p>`);
  }
  return { html: paragraphs.join(''), words };
};

/** Singlish keys of Sinhala words, each computed once (a word list repeats endlessly). */
const keyCache = new Map<string, string>();
const keyOf = (w: string) => {
  let k = keyCache.get(w);
  if (k === undefined) keyCache.set(w, (k = singlishKey(w).trim()));
  return k;
};

const database = await openDatabase({ databaseUrl: url, pgliteDir: null });
const db = database.db;
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;
const values = (list: ReturnType<typeof sql>[]) => sql.join(list, sql`, `);

try {
  const [existing] = await rows<{ n: number }>(sql`select count(*)::int as n from stories`);
  if (Number(existing?.n) > 0) {
    console.error('search-generate: this database already has stories; use a fresh one.');
    process.exitCode = 1;
  } else {
    await db.execute(
      sql`insert into categories (slug, name_en, name_si) values ${values(
        CATEGORIES.map((c) => sql`(${c.slug}, ${c.name.en}, ${c.name.si})`),
      )} on conflict do nothing`,
    );

    step(`${AUTHORS.toLocaleString('en')} authors`);
    const authorIds: { id: number; sinhala: boolean; nameKey: string }[] = [];
    for (let i = 0; i < AUTHORS; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(AUTHORS, i + 1000); j++) {
        const si = j % 5 < 3;
        const lang = si ? sinhala : english;
        const name = `${lang.rare()} ${lang.common()} ${j}`;
        batch.push(sql`(${name}, ${si ? singlishKeyOf(name) : ''})`);
      }
      const found = await rows<{ id: number; name_key: string }>(
        sql`insert into authors (name, name_key) values ${values(batch)} returning id, name_key`,
      );
      for (const r of found)
        authorIds.push({ id: Number(r.id), sinhala: r.name_key !== '', nameKey: r.name_key });
    }
    const siAuthors = authorIds.filter((a) => a.sinhala);
    const enAuthors = authorIds.filter((a) => !a.sinhala);

    step(
      `${STORIES.toLocaleString('en')} stories of ${PARTS} episodes (~${EPISODE_WORDS} words each)`,
    );
    let episodes = 0;
    for (let i = 0; i < STORIES; i += BATCH) {
      const storyRows = [];
      const texts: { html: string; words: number; title: string }[][] = [];
      for (let j = i; j < Math.min(STORIES, i + BATCH); j++) {
        const si = random() < 0.6;
        const lang = si ? sinhala : english;
        const used = new Set<string>();
        const title = sentence(lang, used, int(2, 5)).replace(/\.$/, '');
        const description = sentence(lang, used, int(12, 25));
        const eps = Array.from({ length: PARTS }, (_, k) => ({
          ...episodeHtml(lang, used),
          title: si ? `${k + 1} වන කොටස` : `Part ${k + 1}`,
        }));
        texts.push(eps);
        const author = pick(si ? siAuthors : enAuthors);
        const titleKey = si ? singlishKeyOf(title) : '';
        const descKey = si ? singlishKeyOf(description) : '';
        const wordKeys = si ? [...new Set([...used].map(keyOf).filter(Boolean))].join(' ') : '';
        const reads = Math.floor(1 / (random() + 0.0005)) * 10;
        const rating = 2.5 + random() * 2.5;
        const created = new Date(Date.now() - random() * 730 * 24 * 3600 * 1000);
        storyRows.push(sql`(${author.id}, ${title}, ${description}, ${si ? 'sinhala' : 'english'},
          ${pick(CATEGORIES).slug}, ${random() < 0.1}, ${random() < 0.5}, ${PARTS}, ${PARTS},
          ${reads}, ${reads}, ${rating}, ${int(0, 40)}, ${rating}, ${created.toISOString()}::timestamptz,
          ${titleKey}, ${descKey},
          setweight(to_tsvector('simple', ${titleKey}), 'A') ||
          setweight(to_tsvector('simple', ${author.nameKey}), 'A') ||
          setweight(to_tsvector('simple', ${descKey}), 'B') ||
          setweight(to_tsvector('simple', ${wordKeys}), 'D'))`);
      }
      const ids = await rows<{ id: number }>(sql`
        insert into stories (author_id, title, description, language, category, members_only,
          ongoing, number_of_parts, last_part_number, reads, reads_base, rating, rating_count,
          rating_score, created_at, title_key, description_key, singlish_doc)
        values ${values(storyRows)} returning id`);
      const episodeRows = [];
      for (const [k, { id }] of ids.entries())
        for (const [n, e] of texts[k]!.entries())
          episodeRows.push(
            sql`(${Number(id)}, ${n + 1}, ${e.title}, ${e.html}, ${e.words}, 'published', now(), now())`,
          );
      await db.execute(sql`
        insert into episodes (story_id, part_number, title, content, words, status, published_at, created_at)
        values ${values(episodeRows)}`);
      episodes += episodeRows.length;
      if ((i / BATCH) % 50 === 0)
        step(
          `  ${(i + ids.length).toLocaleString('en')} stories, ${episodes.toLocaleString('en')} episodes`,
        );
    }

    step('search documents (the SQL publishing runs), 2,000 stories a statement');
    const [range] = await rows<{ lo: number; hi: number }>(
      sql`select min(id)::int as lo, max(id)::int as hi from stories`,
    );
    for (let lo = Number(range!.lo); lo <= Number(range!.hi); lo += 2000)
      await db.execute(sql`update stories s set search_doc = ${searchDocSql}
        from authors a where a.id = s.author_id and s.id between ${lo} and ${lo + 1999}`);

    step('vocabulary');
    await rebuildVocabulary(db);
    step('VACUUM ANALYZE');
    for (const table of ['authors', 'stories', 'episodes', 'search_words'])
      await db.execute(sql.raw(`vacuum analyze ${table}`));
    const [sizes] = await rows<{
      stories: number;
      episodes: number;
      words: number;
      mb: number;
    }>(sql`
      select (select count(*) from stories)::int as stories,
        (select count(*) from episodes)::int as episodes,
        (select count(*) from search_words)::int as words,
        (pg_database_size(current_database()) / 1048576)::int as mb`);
    step(
      `done: ${Number(sizes!.stories).toLocaleString('en')} stories, ` +
        `${Number(sizes!.episodes).toLocaleString('en')} episodes, ` +
        `${Number(sizes!.words).toLocaleString('en')} vocabulary words, ${sizes!.mb} MB`,
    );
  }
} finally {
  await database.close();
}
