import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import {
  ENGAGEMENT,
  PRODUCT_APP_ID,
  SINGLISH_KEY_VERSION,
  sriLankaDay,
  type SortBy,
  type StoryListItem,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { distinctWordKeys, hasSinhala, queryKey, singlishKeyOf } from './singlish-keys.ts';
import type { ReaderRows } from './reader-state.ts';

/** Public: at least one episode out and no release date still ahead (drafts never count). */
export const published = sql`(s.number_of_parts > 0 and (s.release_at is null or s.release_at <= now()))`;

/** Announced: a release date ahead and an episode ready or scheduled for it. */
const announced = sql`(s.release_at > now() and exists (
  select 1 from episodes e where e.story_id = s.id and e.status in ('published', 'scheduled')))`;

/** What `published` says of a story row, on the caller's clock. */
export const isReleased = (
  s: { numberOfparts: number; releaseTime: number | null },
  now = Date.now(),
): boolean => s.numberOfparts > 0 && (s.releaseTime === null || s.releaseTime <= now);

/** What `published or announced` says of a story row: whether anyone may see it. */
export const isVisible = (
  s: { numberOfparts: number; releaseTime: number | null; ready: boolean },
  now = Date.now(),
): boolean => isReleased(s, now) || (s.releaseTime !== null && s.releaseTime > now && s.ready);

export const listColumns = sql`
  s.id as "storyId", s.title, s.description, s.kind, s.members_only as "membersOnly", s.ongoing,
  s.language, s.category, s.reads, s.rating, a.id as "authorId", a.name as "authorName",
  s.number_of_parts as "numberOfparts"`;

export interface ListRow {
  storyId: number;
  title: string;
  description: string;
  kind: 0 | 2 | 3;
  membersOnly: boolean;
  ongoing: boolean;
  language: 'sinhala' | 'english';
  category: string;
  reads: number;
  rating: number;
  authorId: number;
  authorName: string;
  numberOfparts: number;
  total?: number;
}

export const toItem = (r: ListRow): StoryListItem => ({
  storyId: r.storyId,
  title: r.title,
  description: r.description,
  kind: Number(r.kind) as 0 | 2 | 3,
  membersOnly: r.membersOnly,
  ongoing: r.ongoing,
  language: r.language,
  category: r.category,
  author: { authorId: r.authorId, name: r.authorName },
  reads: Number(r.reads),
  rating: Number(r.rating),
  numberOfparts: Number(r.numberOfparts),
});

const ORDER: Record<SortBy, SQL> = {
  // The Bayesian average (engagement module): one 5-star vote cannot top many 4.5s.
  rate: sql`s.rating_score desc, s.reads desc, s.id desc`,
  new: sql`coalesce(s.release_at, s.created_at) desc, s.id desc`,
  reads: sql`s.reads desc, s.id desc`,
};

/** Episode text without its markup: search indexes the words only (drafts never). */
const episodeWords = sql`regexp_replace(regexp_replace(e.content, '<[^>]*>', ' ', 'g'), '&(amp|lt|gt|quot|#39|nbsp);', ' ', 'g')`;

const DAY_MS = 24 * 3600 * 1000;

/**
 * The same for Singlish keys. Keys fold vowel length, aspirates and w/v, so they share more
 * trigrams by chance than spelled words do: the bar is a little higher.
 */
const SINGLISH_TYPO_SIMILARITY = 0.5;

/** Stories whose keys are computed in one round (start-up backfill). */
const BACKFILL_BATCH = 100;

/** How much a Singlish match counts beside a match in the script typed, for a Latin query. */
const SINGLISH_WEIGHT_LATIN = 0.8;

/** The words of a search key as the full-text query takes them: syntax stripped, at most 8. */
export const queryWords = (key: string): string[] =>
  key
    .split(/\s+/)
    .map((w) => w.replace(/[&|!():*<>'\\]/g, ''))
    .filter(Boolean)
    .slice(0, 8);

/**
 * Turns typed words into a prefix tsquery ('lant' finds 'lantern'); null when nothing is left.
 * A word with corrections (vocabulary words within its typos) matches any of them too; one the
 * word begins ('ඔවුන්ට' for 'ඔවුන්') it matches already, so it is left out, and a word whose
 * corrections all are gives the query as typed (no second full-text scan for the same matches).
 */
export const toPrefixQuery = (
  key: string,
  corrections: ReadonlyMap<string, string[]> = new Map(),
): string | null => {
  const words = queryWords(key);
  return words.length
    ? words
        .map((w) => {
          const fixes = (corrections.get(w) ?? []).filter((c) => !c.startsWith(w));
          return fixes.length
            ? `('${w}':* | ${fixes.map((c) => `'${c}'`).join(' | ')})`
            : `'${w}':*`;
        })
        .join(' & ')
    : null;
};

/**
 * A story's full-text document (`s` the story, `a` its author): title and author A, description
 * B, the words of its published episodes D, all folded.
 */
export const searchDocSql = sql`
  setweight(to_tsvector('simple', fold_key(s.title)), 'A') ||
  setweight(to_tsvector('simple', fold_key(a.name)), 'A') ||
  setweight(to_tsvector('simple', fold_key(s.description)), 'B') ||
  setweight(to_tsvector('simple', fold_key(coalesce(
    (select string_agg(e.title || ' ' || ${episodeWords}, ' ') from episodes e
      where e.story_id = s.id and e.status = 'published'), ''))), 'D')`;

/** Recounts the whole vocabulary from the stories' search documents (after a full re-index). */
export const rebuildVocabulary = async (db: Db) => {
  await db.execute(sql`delete from search_words`);
  await db.execute(sql`
    insert into search_words (word, stories)
    select w, count(*)::int from stories, unnest(tsvector_to_array(search_doc)) as w
    where search_doc is not null and char_length(w) >= 4 group by w`);
};

/**
 * The words of Singlish title keys, as the title arm's indexes split them (`to_tsvector('simple',
 * title_key)`; keys are Latin letters and spaces), for finding the title words like a query word.
 */
const titleWordsOf = (titleKey: SQL) =>
  sql`unnest(tsvector_to_array(to_tsvector('simple', coalesce(${titleKey}, ''))))`;

/** Refills the title words from every story's title key (after a full re-index or a bulk load). */
export const rebuildTitleWords = async (db: Db) => {
  await db.execute(sql`delete from title_words`);
  await db.execute(sql`
    insert into title_words (word) select distinct w from stories, ${titleWordsOf(sql`title_key`)} as w
    on conflict do nothing`);
};

/** One lock for every change to the vocabulary, so two publishes never interleave its counts. */
const VOCABULARY_LOCK = 727012;

/**
 * Stories each way of matching keeps (the most read): what search ranks and counts. A word in
 * every story would otherwise have every story's whole document read to rank it.
 */
const MATCH_CAP = 200;

/**
 * Read counts above which stories have their own search indexes (migration 0014: partial GIN
 * indexes of search_doc and singlish_doc `where reads >= N`),
 * most read first. A way of matching
 * looks among the most read first: when MATCH_CAP of them match, they are its MATCH_CAP most-read
 * matches (every story left out has fewer reads), so a word in most stories visits a few hundred
 * rows, not every story holding it; a rarer word falls through to the next tier and at last to
 * the whole index, where it has few matches anyway. Literals in the SQL, so the planner can prove
 * each partial index's condition.
 */
const READ_TIERS = [1000, 100] as const;

/**
 * The Singlish title arm's tiers (migrations 0015 and 0016: partial indexes of the title key's
 * words `where reads >= N`). Titles do not follow reads: the most-read 1 %
 * and 10 % hold too few titles like even the most common word to fill MATCH_CAP, so the whole
 * index answered (every title like 'owun', 1,169 of them, read and compared). Reads >= 50 and
 * >= 30 (a fifth and a third of stories as the generator spreads reads) hold 200 of them for a
 * word in some 700 titles or more; a rarer one has few titles to compare anyway.
 */
const TITLE_TIERS = [50, 30] as const;

/** Turns a query into text and values, for the named search statement. */
const dialect = new PgDialect();

/** Candidates fetched by trigram for the exact typo check (typos.ts), best first. */
const TYPO_CANDIDATES = 50;

/**
 * Title words taken for each word of a Singlish query, most like it first: a word of one or two
 * letters is like every word it begins (they are matched as a prefix anyway).
 */
const TITLE_WORD_CANDIDATES = 50;

/** A title word as a tsquery term: keys are letters only, but nothing else may reach the query. */
const PLAIN_WORD = /^[\p{L}\p{N}]+$/u;

/** Queries behind story lists, search and details. */
export const storiesRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  const page = async (where: SQL, order: SQL, limit: number, offset: number) => {
    const found = await rows<ListRow>(sql`
      select ${listColumns}, count(*) over ()::int as total
      from stories s join authors a on a.id = s.author_id
      where ${published} and ${where}
      order by ${order} limit ${limit} offset ${offset}`);
    return { items: found.map(toItem), total: Number(found[0]?.total ?? 0) };
  };

  /**
   * Computes the Singlish keys of these stories in TypeScript (the folding lives in the domain
   * package) and stores them with their full-text document: title and author A, description B,
   * each distinct word of the published episodes D.
   */
  const refreshSinglish = async (ids: number[]) => {
    if (!ids.length) return;
    const found = await rows<{
      id: number;
      title: string;
      description: string;
      name: string;
      words: string;
    }>(sql`
      select s.id, s.title, s.description, a.name, coalesce(
          (select string_agg(e.title || ' ' || ${episodeWords}, ' ') from episodes e
            where e.story_id = s.id and e.status = 'published'), '') as words
      from stories s join authors a on a.id = s.author_id
      where s.id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`);
    for (const r of found) {
      const title = singlishKeyOf(r.title);
      const description = singlishKeyOf(r.description);
      await db.execute(sql`
        update stories set title_key = ${title}, description_key = ${description},
          singlish_key_version = ${SINGLISH_KEY_VERSION}, singlish_doc =
          setweight(to_tsvector('simple', ${title}), 'A') ||
          setweight(to_tsvector('simple', ${singlishKeyOf(r.name)}), 'A') ||
          setweight(to_tsvector('simple', ${description}), 'B') ||
          setweight(to_tsvector('simple', ${distinctWordKeys(r.words)}), 'D')
        where id = ${r.id}`);
      // A title word stays when its title changes (it finds nothing then): never pruned here.
      await db.execute(
        sql`insert into title_words (word) select ${titleWordsOf(sql`${title}::text`)} on conflict do nothing`,
      );
    }
  };

  /** Refreshes the Singlish keys of every story that matches, a batch at a time. */
  const backfill = async (which: SQL) => {
    let after = 0;
    for (;;) {
      const ids = (
        await rows<{ id: number }>(
          sql`select s.id from stories s where s.id > ${after} and (${which}) order by s.id limit ${BACKFILL_BATCH}`,
        )
      ).map((r) => Number(r.id));
      await refreshSinglish(ids);
      if (ids.length < BACKFILL_BATCH) return;
      after = ids[ids.length - 1]!;
    }
  };

  return {
    list: (q: {
      category: string;
      sortBy: SortBy;
      ongoing: 'both' | 'true' | 'false';
      limit: number;
      offset: number;
    }) =>
      page(
        sql`${q.category === 'all' ? sql`true` : sql`s.category = ${q.category}`}
          and ${q.ongoing === 'both' ? sql`true` : sql`s.ongoing = ${q.ongoing === 'true'}`}`,
        ORDER[q.sortBy],
        q.limit,
        q.offset,
      ),

    premium: (limit: number) => page(sql`s.members_only`, ORDER.rate, limit, 0),

    byAuthor: (authorId: number, limit: number) =>
      page(sql`s.author_id = ${authorId}`, ORDER.new, limit, 0),

    /** Reads weighted by age, so a story that is read a lot now beats an old favourite. */
    /**
     * Views in the last ENGAGEMENT.trendingDays Sri Lanka days (story_view_days, kept by the views
     * roll-up); stories without any follow by reads weighted by age, as before views were counted.
     */
    trending: (limit: number) => {
      const since = sriLankaDay(Date.now() - (ENGAGEMENT.trendingDays - 1) * DAY_MS);
      return page(
        sql`true`,
        sql`coalesce((select sum(d.views) from story_view_days d
              where d.story_id = s.id and d.day >= ${since}::date), 0) desc,
          s.reads / power(extract(epoch from (now() - s.updated_at)) / 86400 + 2, 1.5) desc, s.id desc`,
        limit,
        0,
      );
    },

    upcoming: (limit: number) =>
      rows<{
        storyId: number;
        title: string;
        description: string;
        language: 'sinhala' | 'english';
        authorId: number;
        authorName: string;
        releaseAt: Date | string;
      }>(sql`
        select s.id as "storyId", s.title, s.description, s.language, a.id as "authorId",
          a.name as "authorName", s.release_at as "releaseAt"
        from stories s join authors a on a.id = s.author_id
        where ${announced} order by s.release_at, s.id limit ${limit}`),

    /**
     * Stories whose words match the query (full text, by prefix) or whose title or author name
     * matches despite a typo, in the script typed and through the Singlish keys: 'gedara',
     * 'gedhara' and 'ගෙදර' find ගෙදර. An exact-script match outweighs a Singlish one for a Latin
     * query, so an English query that matches English text ranks English stories first.
     */
    search: (
      key: string,
      limit: number,
      offset: number,
      corrections: ReadonlyMap<string, string[]> = new Map(),
    ) => {
      const exact = toPrefixQuery(key);
      const tsquery = toPrefixQuery(key, corrections);
      const corrected = tsquery !== exact;
      const skey = queryKey(key);
      const squery = skey ? toPrefixQuery(skey) : null;
      // A query in Sinhala script means Sinhala stories; a Latin one may be English or Singlish.
      const singlishWeight = hasSinhala(key) ? 1 : SINGLISH_WEIGHT_LATIN;
      // Each way of matching is its own index scan keeping its MATCH_CAP most-read stories, and
      // marks what it found: every word as typed (`exact`), in the script typed (`script`: 0.1 as
      // typed, 0.05 through a correction, so exact ranks above corrected) or as Singlish
      // (`singlish`). A title or author name like the query counts most (word_similarity, up to
      // 1), as ts_rank's weights did. Ranking reads only these marks and the short titles and
      // names, never a whole search document, so a word in every story costs about
      // what a rare one does. Typos in the script typed are the corrections (typos.ts: every word
      // of titles and names is in the vocabulary); a typo in a Singlish title or name key: `<%`
      // is word_similarity at or above pg_trgm.word_similarity_threshold (set to
      // SINGLISH_TYPO_SIMILARITY below, so no second word_similarity call checks it again), which
      // the trigram indexes answer: of title_words for titles (one word at a time, see the title
      // arm), of the name key for authors.
      const arm = (marks: string, from: SQL, where: SQL) =>
        sql`(select s.id, ${sql.raw(marks)} from ${from} where ${published} and ${where}
          order by s.reads desc, s.id desc limit ${MATCH_CAP})`;
      // An arm over stories alone, tier by tier (READ_TIERS, or TITLE_TIERS): each tier's scan runs only when every tier
      // before it found fewer than MATCH_CAP (one-time filters on their counts), and the first
      // tier that fills up, or else the whole index, answers.
      const tiered = (marks: string, where: SQL, bounds: readonly number[] = READ_TIERS) => {
        const tiers = [...bounds.map((n) => `s.reads >= ${n}`), 'true'];
        const scans = tiers.map(
          (tier, k) => sql`${sql.raw(`t${k}`)} as materialized (
            select s.id from stories s where ${published} and ${where} and ${sql.raw(tier)}
            order by s.reads desc, s.id desc limit ${MATCH_CAP})`,
        );
        const found = (k: number) => `(select count(*) from t${k}) >= ${MATCH_CAP}`;
        const branches = tiers.map((_, k) => {
          const when = Array.from({ length: k }, (_, j) => `not ${found(j)}`);
          if (k < bounds.length) when.push(found(k));
          return sql.raw(
            `select id, ${marks} from t${k} where ${when.length ? when.join(' and ') : 'true'}`,
          );
        });
        return sql`(with ${sql.join(scans, sql`, `)} ${sql.join(branches, sql` union all `)})`;
      };
      const withAuthor = sql`authors a join stories s on s.author_id = a.id`;
      // The Singlish title arm: titles holding a word like every query word (`title.all`: each
      // word as a prefix, or a title word within word_similarity SINGLISH_TYPO_SIMILARITY of it),
      // and for several words, titles holding one of them (`title.any`: a title may be like the
      // whole query with one word off, as 'nuvara vava' is like නුවර වැව). Whole titles compared
      // with the key (`<%`) let a short key's trigrams match across two words: 'kilaya' matched
      // 'puskolaya kisi', and a common key's title matches were mostly such.
      const titleArm = (query: string) =>
        tiered(
          '0 as exact, 0 as script, 0 as singlish',
          sql`to_tsvector('simple', coalesce(s.title_key, '')) @@ to_tsquery('simple', ${query})`,
          TITLE_TIERS,
        );
      const arms = (title: { all: string; any: string | null } | null) => [
        ...(exact
          ? [
              tiered(
                '1 as exact, 0.1 as script, 0 as singlish',
                sql`s.search_doc @@ to_tsquery('simple', ${exact})`,
              ),
            ]
          : []),
        ...(tsquery && corrected
          ? [
              tiered(
                '0 as exact, 0.05 as script, 0 as singlish',
                sql`s.search_doc @@ to_tsquery('simple', ${tsquery})`,
              ),
            ]
          : []),
        ...(squery
          ? [
              tiered(
                '1 as exact, 0 as script, 0.1 as singlish',
                sql`s.singlish_doc @@ to_tsquery('simple', ${squery})`,
              ),
              ...(title ? [titleArm(title.all)] : []),
              ...(title?.any ? [titleArm(title.any)] : []),
              arm('0 as exact, 0 as script, 0 as singlish', withAuthor, sql`${skey} <% a.name_key`),
            ]
          : []),
      ];
      // fold_key without its lower(): pg_trgm folds case itself, and lower() over every ranked
      // title and name was a quarter of the ranking's time.
      const zwj = (text: SQL) => sql`translate(${text}, U&'\\200D\\200C', '')`;
      const similar = sql`greatest(word_similarity(${key}, ${zwj(sql`s.title`)}), word_similarity(${key}, ${zwj(sql`a.name`)}))`;
      const singlishSimilar = skey
        ? sql`greatest(word_similarity(${skey}, coalesce(s.title_key, '')),
            word_similarity(${skey}, coalesce(a.name_key, '')))`
        : sql`0`;
      return db.transaction(async (tx) => {
        // Each arm goes through its index: a full-text match found there needs no second look at
        // the document, while the planner, seeing most stories match a common word, would read
        // and test every document (6,000 Sinhala documents: 220 ms against 5 ms).
        await tx.execute(
          sql`select set_config('pg_trgm.word_similarity_threshold', ${String(SINGLISH_TYPO_SIMILARITY)}, true),
            set_config('enable_seqscan', 'off', true),
            set_config('plan_cache_mode', 'force_generic_plan', true)`,
        );
        // Title words like each Singlish query word (`<%` within one word, by the trigram index
        // of title_words): they join the word in the title arm's query as alternatives.
        const titleWords = new Map<string, string[]>();
        const swords = skey ? queryWords(skey) : [];
        if (squery && swords.length) {
          const like = (w: string) =>
            sql`(select ${w}::text as q, word from title_words where ${w} <% word
              order by word_similarity(${w}, word) desc, word limit ${TITLE_WORD_CANDIDATES})`;
          const found = (await tx.execute(
            sql.join(swords.map(like), sql` union all `),
          )) as unknown as { rows: { q: string; word: string }[] };
          for (const r of found.rows)
            if (r.word !== r.q && PLAIN_WORD.test(r.word))
              titleWords.set(r.q, [...(titleWords.get(r.q) ?? []), r.word]);
        }
        const titleAll = skey ? toPrefixQuery(skey, titleWords) : null;
        const title = titleAll
          ? {
              all: titleAll,
              any:
                swords.length > 1
                  ? swords.map((w) => toPrefixQuery(w, titleWords)).join(' | ')
                  : null,
            }
          : null;
        // Planning this query (a dozen index scans, each weighing every index of stories) took
        // more than running it for most words: on PostgreSQL it is a named statement, planned
        // once per connection and shape (which arms and terms its text has) and then reused with each query's
        // values; the tiers' read bounds are literals, so the generic plan still uses the partial
        // indexes. PGlite ignores the name.
        const shape = `search_${exact ? 'e' : ''}${tsquery && corrected ? 'c' : ''}${squery ? 's' : ''}${skey ? 'k' : ''}${title?.any ? 'm' : ''}`;
        const query = sql`
          with hits as (
            select id, max(exact) as exact, max(script) as script, max(singlish) as singlish
            from (${sql.join(arms(title), sql` union all `)}) m group by id)
          select ${listColumns}, count(*) over ()::int as total
          from hits h join stories s on s.id = h.id join authors a on a.id = s.author_id
          order by h.script + ${similar} + ${singlishWeight}::real * (h.singlish + ${singlishSimilar}) desc,
            h.exact desc, s.reads desc, s.id desc
          limit ${limit} offset ${offset}`;
        const found = (await tx._.session
          .prepareQuery(dialect.sqlToQuery(query), undefined, shape, false)
          .execute()) as { rows: ListRow[] };
        return {
          items: found.rows.map(toItem),
          total: Number(found.rows[0]?.total ?? 0),
        };
      });
    },

    author: async (authorId: number) =>
      (
        await rows<{ name: string; bio: string }>(
          sql`select name, bio from authors where id = ${authorId}`,
        )
      )[0],

    /**
     * One story with what its details need, whether or not it is public: visibility depends on
     * the clock (its release date), so callers decide it with `isVisible` when they read.
     */
    story: async (storyId: number) => {
      const [row] = await rows<
        ListRow & {
          seriesId: number | null;
          appId: string;
          keyword: string;
          ratingCount: number;
          releaseAt: string | Date | null;
          ready: boolean;
          authorUserId: number | null;
        }
      >(sql`
        select ${listColumns}, s.series_id as "seriesId", b.app_id as "appId", b.keyword,
          s.rating_count as "ratingCount", s.release_at as "releaseAt",
          a.user_id as "authorUserId",
          exists (select 1 from episodes e where e.story_id = s.id
            and e.status in ('published', 'scheduled')) as ready
        from stories s join authors a on a.id = s.author_id
          join billing_apps b on b.app_id = coalesce(a.app_id, ${PRODUCT_APP_ID})
        where s.id = ${storyId}`);
      // The release date as a number, once: every episode read compares it with the clock.
      return (
        row && {
          ...row,
          releaseTime: row.releaseAt === null ? null : new Date(row.releaseAt).getTime(),
        }
      );
    },

    part: async (storyId: number, partNumber: number, withContent: boolean) =>
      (
        await rows<{
          episodeId: number;
          partNumber: number;
          title: string;
          membersOnly: boolean;
          content?: string;
        }>(sql`
        select id as "episodeId", part_number as "partNumber", title, members_only as "membersOnly"
          ${withContent ? sql`, content` : sql``}
        from episodes where story_id = ${storyId} and part_number = ${partNumber} and status = 'published'`)
      )[0],

    /** A published episode of the story by its id: what a comment on it needs to know. */
    publishedEpisode: async (storyId: number, episodeId: number) =>
      (
        await rows<{ id: number; partNumber: number; membersOnly: boolean }>(sql`
        select id, part_number as "partNumber", members_only as "membersOnly" from episodes
        where id = ${episodeId} and story_id = ${storyId} and status = 'published'
          and part_number is not null`)
      )[0],

    seasons: async (seriesId: number) =>
      (
        await rows<{ id: number }>(
          sql`select s.id from stories s where s.series_id = ${seriesId} and ${published} order by s.season, s.id`,
        )
      ).map((r) => r.id),

    /** The public seasons of a series as list items, in season order; null for no such series. */
    seasonList: async (seriesId: number) => {
      if (!(await rows(sql`select 1 from series where id = ${seriesId}`)).length) return null;
      const found = await rows<ListRow & { season: number | null }>(sql`
        select ${listColumns}, s.season from stories s join authors a on a.id = s.author_id
        where s.series_id = ${seriesId} and ${published} order by s.season, s.id`);
      return found.map((r) => ({ ...toItem(r), season: Number(r.season ?? 1) }));
    },

    /** A reader's subscriptions, ratings, bookmarks and alerts, for all their stories at once. */
    readerRows: async (userId: number): Promise<ReaderRows> => {
      // One row always (no FROM); array() is never null, json_agg is without ratings.
      const [r] = await rows<{
        apps: string[];
        ratings: [number, number][] | null;
        bookmarks: number[];
        alerts: number[];
      }>(sql`
        select
          array(select app_id from subscriptions where user_id = ${userId} and status = 'active') as apps,
          (select json_agg(json_build_array(story_id, rating)) from ratings where user_id = ${userId}) as ratings,
          array(select story_id from bookmarks where user_id = ${userId}) as bookmarks,
          array(select story_id from story_alerts where user_id = ${userId}) as alerts`);
      return {
        apps: r!.apps,
        ratings: (r!.ratings ?? []).map(
          ([story, rating]) => [Number(story), Number(rating)] as const,
        ),
        bookmarks: r!.bookmarks.map(Number),
        alerts: r!.alerts.map(Number),
      };
    },

    /** Rebuilds the full-text document and Singlish keys of one story, or of all when no id is given. */
    refreshSearchDoc: async (storyId?: number) => {
      const doc = searchDocSql;
      // Vocabulary counts are read, changed and written back: one writer at a time (the caller's
      // transaction holds the lock to its end; publishing is rare beside reading).
      await db.execute(sql`select pg_advisory_xact_lock(${VOCABULARY_LOCK})`);
      if (!storyId) {
        await db.execute(
          sql`update stories s set search_doc = ${doc} from authors a where a.id = s.author_id`,
        );
        await rebuildVocabulary(db);
        await db.execute(sql`delete from title_words`);
        await backfill(sql`true`);
        return;
      }
      // One statement: every part sees the document as it was before, so only the words that
      // came or went change their counts (an episode adds a few words to a story, not all).
      await db.execute(sql`
        with old as (
          select unnest(tsvector_to_array(search_doc)) as w from stories where id = ${storyId}),
        upd as (
          update stories s set search_doc = ${doc}
          from authors a where a.id = s.author_id and s.id = ${storyId} returning s.search_doc),
        new as (select unnest(tsvector_to_array(search_doc)) as w from upd),
        gone as (select w from old where char_length(w) >= 4 except select w from new),
        came as (select w from new where char_length(w) >= 4 except select w from old),
        fewer as (
          update search_words v set stories = v.stories - 1 from gone
          where v.word = gone.w and v.stories > 1),
        dropped as (
          delete from search_words v using gone where v.word = gone.w and v.stories <= 1)
        insert into search_words (word, stories) select w, 1 from came order by w
        on conflict (word) do update set stories = search_words.stories + 1`);
      await refreshSinglish([storyId]);
    },

    /**
     * Vocabulary words that may be what a mistyped word meant: the word with two neighbours
     * swapped, exactly, and the nearest by trigram similarity (at least `similarity`, with a
     * length within `typos` of the word's). The caller checks each exactly (typos.ts).
     */
    typoCandidates: async (word: string, swaps: string[], typos: number, similarity: number) => {
      const letters = [...word].length;
      return db.transaction(async (tx) => {
        // The trigram index answers `%` against this threshold; set for this transaction only.
        // Left to itself the planner walks the primary key's index and computes the similarity
        // of every word (10 ms over 4,300 words in PGlite, on the event loop; 30 ms under load in
        // PostgreSQL); with plain index scans off it takes the trigram index (2-3 ms).
        await tx.execute(
          sql`select set_config('pg_trgm.similarity_threshold', ${String(similarity)}, true),
                     set_config('enable_indexscan', 'off', true),
                     set_config('enable_indexonlyscan', 'off', true)`,
        );
        const found = (await tx.execute(sql`
          (select word from search_words where word in (${sql.join(
            [word, ...swaps].map((w) => sql`${w}`),
            sql`, `,
          )}))
          union
          (select word from search_words
            where word % ${word} and char_length(word) between ${letters - typos} and ${letters + typos}
            order by similarity(word, ${word}) desc, word limit ${TYPO_CANDIDATES})`)) as unknown as {
          rows: { word: string }[];
        };
        return found.rows.map((r) => r.word);
      });
    },

    /**
     * Computes the Singlish keys of stories and authors that have none yet (made before them) or
     * have them from an older folding (SINGLISH_KEY_VERSION): stored keys and query keys meet
     * only when one version made both.
     */
    backfillSinglishKeys: async () => {
      await backfill(
        sql`s.title_key is null or s.singlish_doc is null or s.singlish_key_version <> ${SINGLISH_KEY_VERSION}`,
      );
      for (;;) {
        const found = await rows<{ id: number; name: string }>(
          sql`select id, name from authors
            where name_key is null or singlish_key_version <> ${SINGLISH_KEY_VERSION}
            order by id limit ${BACKFILL_BATCH}`,
        );
        for (const a of found)
          await db.execute(
            sql`update authors set name_key = ${singlishKeyOf(a.name)},
              singlish_key_version = ${SINGLISH_KEY_VERSION} where id = ${a.id}`,
          );
        if (found.length < BACKFILL_BATCH) break;
      }
    },
  };
};
export type StoriesRepo = ReturnType<typeof storiesRepo>;
