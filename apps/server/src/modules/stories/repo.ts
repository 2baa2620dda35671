import { sql, type SQL } from 'drizzle-orm';
import {
  ENGAGEMENT,
  PRODUCT_APP_ID,
  sriLankaDay,
  type SortBy,
  type StoryListItem,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { distinctWordKeys, hasSinhala, queryKey, singlishKeyOf } from './singlish-keys.ts';

/** Public: at least one episode out and no release date still ahead (drafts never count). */
export const published = sql`(s.number_of_parts > 0 and (s.release_at is null or s.release_at <= now()))`;

/** Announced: a release date ahead and an episode ready or scheduled for it. */
const announced = sql`(s.release_at > now() and exists (
  select 1 from episodes e where e.story_id = s.id and e.status in ('published', 'scheduled')))`;

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

/** How close a mistyped title or author name must be to match: 'lantren' finds 'Lantern' (0.5). */
const TYPO_SIMILARITY = 0.45;

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

/** Turns typed words into a prefix tsquery ('lant' finds 'lantern'); null when nothing is left. */
export const toPrefixQuery = (key: string): string | null => {
  const words = key
    .split(/\s+/)
    .map((w) => w.replace(/[&|!():*<>'\\]/g, ''))
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `'${w}':*`).join(' & ') : null;
};

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
        update stories set title_key = ${title}, description_key = ${description}, singlish_doc =
          setweight(to_tsvector('simple', ${title}), 'A') ||
          setweight(to_tsvector('simple', ${singlishKeyOf(r.name)}), 'A') ||
          setweight(to_tsvector('simple', ${description}), 'B') ||
          setweight(to_tsvector('simple', ${distinctWordKeys(r.words)}), 'D')
        where id = ${r.id}`);
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
    search: (key: string, limit: number, offset: number) => {
      const tsquery = toPrefixQuery(key);
      const match = tsquery ? sql`s.search_doc @@ to_tsquery('simple', ${tsquery})` : sql`false`;
      const rank = tsquery ? sql`ts_rank(s.search_doc, to_tsquery('simple', ${tsquery}))` : sql`0`;
      const skey = queryKey(key);
      const squery = skey ? toPrefixQuery(skey) : null;
      const smatch = squery
        ? sql`s.singlish_doc @@ to_tsquery('simple', ${squery})
          or word_similarity(${skey}, s.title_key) >= ${SINGLISH_TYPO_SIMILARITY}
          or word_similarity(${skey}, a.name_key) >= ${SINGLISH_TYPO_SIMILARITY}`
        : sql`false`;
      const srank = squery
        ? sql`ts_rank(s.singlish_doc, to_tsquery('simple', ${squery})) + greatest(
            word_similarity(${skey}, coalesce(s.title_key, '')),
            word_similarity(${skey}, coalesce(a.name_key, '')))`
        : sql`0`;
      // A query in Sinhala script means Sinhala stories; a Latin one may be English or Singlish.
      const singlishWeight = hasSinhala(key) ? 1 : SINGLISH_WEIGHT_LATIN;
      return page(
        sql`(${match} or word_similarity(${key}, fold_key(s.title)) >= ${TYPO_SIMILARITY}
          or word_similarity(${key}, fold_key(a.name)) >= ${TYPO_SIMILARITY} or ${smatch})`,
        sql`${rank} + greatest(word_similarity(${key}, fold_key(s.title)), word_similarity(${key}, fold_key(a.name)))
          + ${singlishWeight}::real * (${srank}) desc, s.reads desc, s.id desc`,
        limit,
        offset,
      );
    },

    author: async (authorId: number) =>
      (
        await rows<{ name: string; bio: string }>(
          sql`select name, bio from authors where id = ${authorId}`,
        )
      )[0],

    story: async (storyId: number) =>
      (
        await rows<
          ListRow & {
            seriesId: number | null;
            released: boolean;
            appId: string;
            keyword: string;
            ratingCount: number;
          }
        >(sql`
        select ${listColumns}, s.series_id as "seriesId", ${published} as released,
          b.app_id as "appId", b.keyword, s.rating_count as "ratingCount"
        from stories s join authors a on a.id = s.author_id
          join billing_apps b on b.app_id = coalesce(a.app_id, ${PRODUCT_APP_ID})
        where s.id = ${storyId} and (${published} or ${announced})`)
      )[0],

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

    isSubscribed: async (userId: number, appId: string) =>
      (
        await rows(
          sql`select 1 from subscriptions where user_id = ${userId} and app_id = ${appId} and status = 'active' limit 1`,
        )
      ).length > 0,

    /** What the details answer says about this viewer, in one round trip. */
    viewerState: async (userId: number, storyId: number, appId: string) => {
      const [r] = await rows<{
        subscribed: boolean;
        userRating: number | null;
        bookmarked: boolean;
        alertEnabled: boolean;
      }>(sql`
        select
          exists (select 1 from subscriptions where user_id = ${userId} and app_id = ${appId}
            and status = 'active') as subscribed,
          (select rating from ratings where user_id = ${userId} and story_id = ${storyId}) as "userRating",
          exists (select 1 from bookmarks where user_id = ${userId} and story_id = ${storyId}) as bookmarked,
          exists (select 1 from story_alerts where user_id = ${userId} and story_id = ${storyId}) as "alertEnabled"`);
      return {
        subscribed: Boolean(r?.subscribed),
        userRating: r?.userRating == null ? null : Number(r.userRating),
        bookmarked: Boolean(r?.bookmarked),
        alertEnabled: Boolean(r?.alertEnabled),
      };
    },

    /** Rebuilds the full-text document and Singlish keys of one story, or of all when no id is given. */
    refreshSearchDoc: async (storyId?: number) => {
      await db.execute(sql`
        update stories s set search_doc =
          setweight(to_tsvector('simple', fold_key(s.title)), 'A') ||
          setweight(to_tsvector('simple', fold_key(a.name)), 'A') ||
          setweight(to_tsvector('simple', fold_key(s.description)), 'B') ||
          setweight(to_tsvector('simple', fold_key(coalesce(
            (select string_agg(e.title || ' ' || ${episodeWords}, ' ') from episodes e
              where e.story_id = s.id and e.status = 'published'), ''))), 'D')
        from authors a where a.id = s.author_id ${storyId ? sql`and s.id = ${storyId}` : sql``}`);
      if (storyId) await refreshSinglish([storyId]);
      else await backfill(sql`true`);
    },

    /** Computes the Singlish keys of stories and authors that have none yet (made before them). */
    backfillSinglishKeys: async () => {
      await backfill(sql`s.title_key is null or s.singlish_doc is null`);
      for (;;) {
        const found = await rows<{ id: number; name: string }>(
          sql`select id, name from authors where name_key is null order by id limit ${BACKFILL_BATCH}`,
        );
        for (const a of found)
          await db.execute(
            sql`update authors set name_key = ${singlishKeyOf(a.name)} where id = ${a.id}`,
          );
        if (found.length < BACKFILL_BATCH) break;
      }
    },
  };
};
export type StoriesRepo = ReturnType<typeof storiesRepo>;
