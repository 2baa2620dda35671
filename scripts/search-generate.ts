// npm run search:generate: fills a PostgreSQL database with stories and episodes of Sinhala and
// English text, so search can be timed at scale (npm run bench:search).
//
// Needs DATABASE_URL (a PostgreSQL database; PGlite is refused: a million episodes there say
// nothing about production) and psql (PATH, or PG_BIN). Opens the database through the app's own
// client (migrations run), then loads in bulk, as a restore does:
//   1. SEARCH_AUTHORS authors (default 5,000), their names from Sinhala and English name parts;
//   2. the secondary indexes of stories and episodes are dropped (their definitions kept);
//   3. SEARCH_STORIES stories (default 100,000; 60 % Sinhala) of SEARCH_PARTS published episodes
//      each (default 10: 1,000,000 episodes) of about SEARCH_EPISODE_WORDS words (default 150) go
//      through COPY (two psql processes, piped), stories with their search document and Singlish
//      document already made: the text is drawn as word numbers, each distinct word is read by
//      PostgreSQL once (`to_tsvector('simple', fold_key(word))`), and the documents are written
//      as tsvector literals, as searchDocSql would make them of the same text (a sample is
//      compared with searchDocSql at the end; the run fails if one differs);
//   4. the indexes are built again (maintenance_work_mem 1 GB, two at a time), then the
//      vocabulary, the title words and VACUUM ANALYZE.
// Inserting row by row and then updating each story's document with searchDocSql took about 40
// minutes for the default size: every row went through every GIN index, each update wrote the
// row again, and to_tsvector read 150 million words one by one.
// The words: every word of the demo stories, drawn by how often the demo text uses it (so 'the',
// 'and', 'ඒ', 'එයා' are everywhere), plus a long tail of made-up words from syllables (each in a
// few stories, as names and rare words are). Deterministic (SEARCH_SEED). Refuses a database
// that already has stories (use a fresh one).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { CATEGORIES, SINGLISH_KEY_VERSION, singlishKeys } from '@kathamala/domain';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { englishStories } from '../apps/server/src/db/seed/content/stories-en.ts';
import { sinhalaStories } from '../apps/server/src/db/seed/content/stories-si.ts';
import {
  rebuildTitleWords,
  rebuildVocabulary,
  searchDocSql,
} from '../apps/server/src/modules/stories/repo.ts';
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
/** Stories drawn before their new pieces of text are looked up. */
const BATCH = 1_000;
/** Statements at a time (the machine has 2 cores). */
const PARALLEL = envInt('SEARCH_PARALLEL', 2);
const PSQL = process.env.PG_BIN ? path.join(process.env.PG_BIN, 'psql') : 'psql';

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

/**
 * Every word the generator writes, by number: the text is drawn as numbers, and the search
 * documents are built from per-number tables, never by hashing the same strings again.
 */
const WORDS: string[] = [];
const wordIds = new Map<string, number>();
/** Each word's lexemes by number (null until asked: `learn`). */
const lexemesOf: (number[] | null)[] = [];
/** Each word's Singlish key (its number; -1 for none, UNKNOWN_KEY until computed). */
const keyIds: number[] = [];
/** Each word's second key (a word with ේ or ෝ: singlishKeys), -1 for none. */
const otherKeyIds: number[] = [];
const UNKNOWN_KEY = -2;
const intern = (w: string) => {
  let id = wordIds.get(w);
  if (id === undefined) {
    wordIds.set(w, (id = WORDS.push(w) - 1));
    // The tables by word number stay dense (no holes): V8 keeps them fast arrays.
    lexemesOf.push(null);
    keyIds.push(UNKNOWN_KEY);
    otherKeyIds.push(-1);
  }
  return id;
};

/** Words drawn by weight (their numbers): a cumulative table searched by bisection. */
const sampler = (counts: Map<string, number>) => {
  const words = [...counts.keys()];
  const ids = Int32Array.from(words, intern);
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
    return ids[lo]!;
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
/** A sentence of the language's words; each word drawn is also pushed to `tokens`, in order. */
const sentence = (lang: Lang, tokens: number[], words = int(6, 16)) => {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = word(lang);
    tokens.push(w);
    out.push(WORDS[w]!);
  }
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
};
const episodeHtml = (lang: Lang, tokens: number[]) => {
  const paragraphs: string[] = [];
  let words = 0;
  while (words < EPISODE_WORDS) {
    const sentences: string[] = [];
    for (let k = int(2, 5); k > 0 && words < EPISODE_WORDS; k--) {
      const n = int(6, 16);
      words += n;
      sentences.push(sentence(lang, tokens, n));
    }
    paragraphs.push(`<p>${sentences.join(' ')}</p>`);
  }
  return { html: paragraphs.join(''), words };
};
/** The numbers of a text's whitespace-separated words. */
const wordsOf = (text: string) => text.split(' ').filter(Boolean).map(intern);
/** Episode titles as publishing would have them, with their words. */
const partTitles = (si: boolean) =>
  Array.from({ length: PARTS }, (_, k) => {
    const text = si ? `${k + 1} වන කොටස` : `Part ${k + 1}`;
    return { text, tokens: wordsOf(text) };
  });
const PART_TITLES = { sinhala: partTitles(true), english: partTitles(false) };

/** The Singlish keys of a Sinhala word (their numbers; -1 for none), each computed once. */
const keysOf = (w: number): [number, number] => {
  if (keyIds[w] === UNKNOWN_KEY) {
    const [own = '', other = ''] = singlishKeys(WORDS[w]!).map((k) => k.trim());
    keyIds[w] = own ? intern(own) : -1;
    otherKeyIds[w] = other ? intern(other) : -1;
  }
  return [keyIds[w]!, otherKeyIds[w]!];
};

/**
 * How PostgreSQL's 'simple' configuration reads each word (`to_tsvector('simple',
 * fold_key(word))`: its lexemes in position order, by number), asked once per distinct word. The
 * parser never joins words across whitespace, and a capital first letter or a sentence's full
 * stop changes no lexeme, so a document built from these is what to_tsvector makes of the whole
 * text (checked on a sample at the end).
 */
/** Each lexeme as a tsvector literal writes it (quoted), by number. */
const LEXEMES: string[] = [];
const lexemeIds = new Map<string, number>();
const learn = async (words: Iterable<number>) => {
  const unknown = new Set<number>();
  for (const w of words) if (lexemesOf[w] === null) unknown.add(w);
  const list = [...unknown];
  for (let i = 0; i < list.length; i += 20_000) {
    const part = list.slice(i, i + 20_000);
    const found = await rows<{ n: number; lexemes: string[] }>(sql`
      select (w.n - 1)::int as n, coalesce((select array_agg(u.lexeme order by p)
          from unnest(to_tsvector('simple', fold_key(w.word))) u, unnest(u.positions) p), '{}') as lexemes
      from jsonb_array_elements_text(${JSON.stringify(part.map((w) => WORDS[w]))}::jsonb)
        with ordinality as w(word, n)`);
    for (const r of found)
      lexemesOf[part[Number(r.n)]!] = r.lexemes.map((l) => {
        let id = lexemeIds.get(l);
        if (id === undefined) {
          lexemeIds.set(
            l,
            (id = LEXEMES.push(`'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`) - 1),
          );
          positions.push([]);
          counts.push(0);
          stamp.push(0);
        }
        return id;
      });
  }
};

/** Positions tsvector keeps: at most 255 a lexeme, none past 16,383 (PostgreSQL's limits). */
const MAX_POSITIONS = 255;
const MAX_POSITION = 16_383;

/** Per-lexeme position lists, reused from one document to the next (no allocation per word). */
const positions: number[][] = [];
const counts: number[] = [];
const stamp: number[] = [];
let documents = 0;

/**
 * The text form of `setweight(to_tsvector('simple', fold_key(part)), weight) || ...` over the
 * parts (their words) in order: each part's positions follow the previous parts' last one, as
 * `||` shifts them.
 */
const tsvectorText = (parts: [words: number[], weight: 'A' | 'B' | 'D'][]) => {
  const doc = ++documents;
  const touched: number[] = [];
  // Where each part's positions end, with its weight's mark, for writing them out.
  const ends: number[] = [];
  const marks: string[] = [];
  let base = 0;
  for (const [words, weight] of parts) {
    let pos = 0;
    let last = base;
    for (let i = 0; i < words.length; i++) {
      const lexemes = lexemesOf[words[i]!]!;
      for (let j = 0; j < lexemes.length; j++) {
        const lexeme = lexemes[j]!;
        const at = Math.min(base + ++pos, MAX_POSITION);
        if (stamp[lexeme] !== doc) {
          stamp[lexeme] = doc;
          counts[lexeme] = 0;
          touched.push(lexeme);
        }
        const n = counts[lexeme]!;
        const list = positions[lexeme]!;
        if (n < MAX_POSITIONS && !(at === MAX_POSITION && n > 0 && list[n - 1] === at)) {
          list[n] = at;
          counts[lexeme] = n + 1;
          if (at > last) last = at;
        }
      }
    }
    base = last;
    ends.push(last);
    marks.push(weight === 'D' ? '' : weight);
  }
  let out = '';
  for (const l of touched) {
    const list = positions[l]!;
    out += out ? ` ${LEXEMES[l]!}:` : `${LEXEMES[l]!}:`;
    for (let i = 0, part = 0; i < counts[l]!; i++) {
      while (list[i]! > ends[part]!) part++;
      out += i ? `,${list[i]!}${marks[part]!}` : `${list[i]!}${marks[part]!}`;
    }
  }
  return out;
};

/** A value as COPY's text format wants it (\\N for null; backslash, tab and newlines escaped). */
const field = (v: string | number | boolean | null) =>
  v === null
    ? '\\N'
    : String(v).replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      );

/**
 * A running `psql -c "copy ... from stdin"`: write rows, then end() waits for it to finish. The
 * session is a replica's (superuser only, as the throwaway database's postgres is), so foreign
 * keys are not checked row by row: episodes and their stories go in side by side.
 */
const copyInto = (table: string, columns: string[]) => {
  const child = spawn(
    PSQL,
    [
      ...['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url],
      ...['-c', 'set session_replication_role = replica'],
      ...['-c', `copy ${table} (${columns.join(', ')}) from stdin`],
    ],
    { stdio: ['pipe', 'inherit', 'inherit'] },
  );
  const exited = once(child, 'exit');
  let buffer = '';
  const flush = async () => {
    if (!buffer) return;
    const ok = child.stdin.write(buffer);
    buffer = '';
    if (!ok) await once(child.stdin, 'drain');
  };
  return {
    row: async (values: (string | number | boolean | null)[]) => {
      buffer += values.map(field).join('\t') + '\n';
      if (buffer.length > 1 << 20) await flush();
    },
    end: async () => {
      await flush();
      child.stdin.end();
      const [code] = await exited;
      if (code !== 0) throw new Error(`psql copy into ${table} exited with ${String(code)}`);
    },
  };
};

/** Runs the jobs, `PARALLEL` at a time. */
const inParallel = async (jobs: (() => Promise<unknown>)[]) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
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
    const authorIds: { id: number; sinhala: boolean; words: number[]; keyWords: number[] }[] = [];
    for (let i = 0; i < AUTHORS; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(AUTHORS, i + 1000); j++) {
        const si = j % 5 < 3;
        const lang = si ? sinhala : english;
        const name = `${WORDS[lang.rare()]!} ${WORDS[lang.common()]!} ${j}`;
        batch.push(sql`(${name}, ${si ? singlishKeyOf(name) : ''}, ${SINGLISH_KEY_VERSION})`);
      }
      const found = await rows<{ id: number; name: string; name_key: string }>(
        sql`insert into authors (name, name_key, singlish_key_version) values ${values(batch)}
          returning id, name, name_key`,
      );
      for (const r of found)
        authorIds.push({
          id: Number(r.id),
          sinhala: r.name_key !== '',
          words: wordsOf(r.name),
          keyWords: wordsOf(r.name_key),
        });
    }
    const siAuthors = authorIds.filter((a) => a.sinhala);
    const enAuthors = authorIds.filter((a) => !a.sinhala);

    // Secondary indexes are built once at the end: kept up row by row, the GIN indexes cost
    // more than the rows. Indexes behind constraints (primary and unique keys) stay.
    const indexes = await rows<{ name: string; def: string }>(sql`
      select indexname as name, indexdef as def from pg_indexes
      where schemaname = current_schema() and tablename in ('stories', 'episodes')
        and indexname not in (select conname from pg_constraint)`);
    step(`dropping ${indexes.length} indexes for the load`);
    for (const ix of indexes) await db.execute(sql.raw(`drop index "${ix.name}"`));

    step(
      `${STORIES.toLocaleString('en')} stories of ${PARTS} episodes (~${EPISODE_WORDS} words each), through COPY`,
    );
    const storyCopy = copyInto('stories', [
      'id',
      'author_id',
      'title',
      'description',
      'language',
      'category',
      'members_only',
      'ongoing',
      'number_of_parts',
      'last_part_number',
      'reads',
      'reads_base',
      'rating',
      'rating_count',
      'rating_score',
      'created_at',
      'title_key',
      'description_key',
      'search_doc',
      'singlish_doc',
      'singlish_key_version',
    ]);
    const episodeCopy = copyInto('episodes', [
      'story_id',
      'part_number',
      'title',
      'content',
      'words',
      'status',
      'published_at',
      'created_at',
    ]);
    const now = new Date().toISOString();
    for (let lo = 1; lo <= STORIES; lo += BATCH) {
      // A batch is drawn first, then its unknown pieces of text are looked up in one query.
      const batch = [];
      for (let id = lo; id < Math.min(STORIES + 1, lo + BATCH); id++) {
        const si = random() < 0.6;
        const lang = si ? sinhala : english;
        const titleWords: number[] = [];
        const title = sentence(lang, titleWords, int(2, 5)).replace(/\.$/, '');
        const descriptionWords: number[] = [];
        const description = sentence(lang, descriptionWords, int(12, 25));
        // The words of the search document's episode part (searchDocSql): each episode's title
        // and text, markup out.
        const words: number[] = [];
        const eps = PART_TITLES[si ? 'sinhala' : 'english'].map((t) => {
          words.push(...t.tokens);
          return { ...episodeHtml(lang, words), title: t.text };
        });
        const author = pick(si ? siAuthors : enAuthors);
        const used = new Set([...titleWords, ...descriptionWords, ...words]);
        const keys = {
          title: si ? singlishKeyOf(title) : '',
          description: si ? singlishKeyOf(description) : '',
          words: si ? [...new Set([...used].flatMap(keysOf))].filter((k) => k >= 0) : [],
        };
        const reads = Math.floor(1 / (random() + 0.0005)) * 10;
        const rating = (2.5 + random() * 2.5).toFixed(3);
        const created = new Date(Date.now() - random() * 730 * 24 * 3600 * 1000).toISOString();
        const row: (string | number | boolean)[] = [id, author.id, title, description];
        row.push(si ? 'sinhala' : 'english');
        row.push(pick(CATEGORIES).slug, random() < 0.1, random() < 0.5, PARTS, PARTS);
        row.push(reads, reads, rating, int(0, 40), rating, created, keys.title, keys.description);
        batch.push({
          id,
          eps,
          row,
          searchDoc: [
            [titleWords, 'A'],
            [author.words, 'A'],
            [descriptionWords, 'B'],
            [words, 'D'],
          ] as [number[], 'A' | 'B' | 'D'][],
          singlishDoc: [
            [wordsOf(keys.title), 'A'],
            [author.keyWords, 'A'],
            [wordsOf(keys.description), 'B'],
            [keys.words, 'D'],
          ] as [number[], 'A' | 'B' | 'D'][],
        });
      }
      // Then the words not seen before are looked up, in one query.
      await learn(
        (function* () {
          for (const b of batch)
            for (const doc of [b.searchDoc, b.singlishDoc]) for (const [ws] of doc) yield* ws;
        })(),
      );
      for (const b of batch) {
        await storyCopy.row([
          ...b.row,
          tsvectorText(b.searchDoc),
          tsvectorText(b.singlishDoc),
          SINGLISH_KEY_VERSION,
        ]);
        for (const [k, e] of b.eps.entries())
          await episodeCopy.row([b.id, k + 1, e.title, e.html, e.words, 'published', now, now]);
      }
      if ((lo - 1 + BATCH) % 10_000 === 0)
        step(
          `  ${(lo - 1 + BATCH).toLocaleString('en')} stories, ${WORDS.length.toLocaleString('en')} distinct words`,
        );
    }
    await Promise.all([storyCopy.end(), episodeCopy.end()]);
    await db.execute(sql`select setval('stories_id_seq', ${STORIES})`);

    step(`building ${indexes.length} indexes`);
    await inParallel(
      indexes.map(
        (ix) => () =>
          db.transaction(async (tx) => {
            await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
            await tx.execute(sql.raw(ix.def));
          }),
      ),
    );

    // The documents built here must hold what publishing's SQL makes of the same text (positions
    // aside: its string_agg takes the episodes in no set order).
    const [check] = await rows<{ checked: number; differ: number }>(sql`
      select count(*)::int as checked,
        count(*) filter (where strip(s.search_doc) <> strip(${searchDocSql}))::int as differ
      from stories s join authors a on a.id = s.author_id where s.id % 500 = 1`);
    step(
      `search documents checked against searchDocSql on ${check!.checked} stories: ${check!.differ} differ`,
    );
    if (Number(check!.differ) > 0) process.exitCode = 1;

    step('vocabulary');
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local work_mem = '512MB'`);
      await rebuildVocabulary(tx as unknown as typeof db);
      await rebuildTitleWords(tx as unknown as typeof db);
    });
    step('VACUUM ANALYZE');
    for (const table of ['authors', 'stories', 'episodes', 'search_words', 'title_words'])
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
