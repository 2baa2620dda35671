import { sql, type SQL } from 'drizzle-orm';
import { ENGAGEMENT, PRODUCT_APP_ID, type Progress, type StoryListItem } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { listColumns, published, toItem, type ListRow } from '../stories/repo.ts';

/** The prior mean before anyone on the site has rated anything (a middling 3.5 stars). */
export const DEFAULT_PRIOR_MEAN = 3.5;

/** Mean of every rating on the site, from the stories' own aggregates (no scan of `ratings`). */
const siteMean = sql`(select coalesce(sum(rating::float8 * rating_count) / nullif(sum(rating_count), 0),
  ${DEFAULT_PRIOR_MEAN}::float8) from stories)`;

/**
 * The Bayesian average sortBy=rate orders by: C phantom votes at the site mean m, so
 * (C*m + sum) / (C + n). A story nobody rated scores 0 and sorts after every rated one.
 */
const scoreOf = (total: SQL, n: SQL, m: SQL) => {
  const c = sql`${ENGAGEMENT.ratingPriorVotes}::float8`;
  return sql`case when ${n} = 0 then 0 else (${c} * ${m} + (${total})::float8) / (${c} + ${n}) end`;
};

/** Where a progress row or a bookmark is, as the answer shows it. */
interface ProgressRow {
  partNumber: number | null;
  position: number | null;
  progressAt: Date | string | null;
}

const toProgress = (r: ProgressRow): Progress | null =>
  r.partNumber === null || r.position === null || r.progressAt === null
    ? null
    : {
        partNumber: Number(r.partNumber),
        position: Number(r.position),
        updatedAt: new Date(r.progressAt).toISOString(),
      };

/** The SQL of ratings, bookmarks, reading progress and views. */
export const engagementRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  return {
    /** A published part of a released story, with whether it is locked and the viewer subscribed. */
    publicPart: async (storyId: number, partNumber: number, userId: number) =>
      (
        await rows<{ locked: boolean; subscribed: boolean }>(sql`
          select (s.members_only or e.members_only) as locked,
            exists (select 1 from subscriptions u where u.user_id = ${userId}
              and u.app_id = coalesce(a.app_id, ${PRODUCT_APP_ID}) and u.status = 'active') as subscribed
          from episodes e join stories s on s.id = e.story_id join authors a on a.id = s.author_id
          where e.story_id = ${storyId} and e.part_number = ${partNumber}
            and e.status = 'published' and ${published}`)
      )[0],

    /**
     * Stores the reader's rating (replacing theirs; 0 takes it back, so it counts no more) and
     * answers the story's mean and count with it, in one statement: the others' rows as they
     * stand, and this one. The story row is not written: every read of the story holds it, and a
     * lock or a change on it for each rating made the story's readers wait (refreshRating brings
     * it up to date, off the request).
     */
    rate: async (userId: number, storyId: number, rating: number) => {
      const change =
        rating === 0
          ? sql`delete from ratings where user_id = ${userId} and story_id = ${storyId}
              returning null::float8 as rating`
          : sql`insert into ratings (user_id, story_id, rating, updated_at)
              values (${userId}, ${storyId}, ${rating}, now())
              on conflict (user_id, story_id) do update
                set rating = excluded.rating, updated_at = now()
              returning rating::float8`;
      // The statement's snapshot does not hold its own change: the others' rows plus the new one.
      const [r] = await rows<{ rating: number; ratingCount: number }>(sql`
        with mine as (${change}),
        others as (
          select coalesce(sum(rating::float8), 0) as total, count(*)::int as n
          from ratings where story_id = ${storyId} and user_id <> ${userId}),
        totals as (
          select total + coalesce((select sum(rating) from mine), 0) as total,
            n + (select count(rating)::int from mine) as n
          from others)
        select round(coalesce(total / nullif(n, 0), 0)::numeric, 2) as rating, n as "ratingCount"
        from totals`);
      return { rating: Number(r!.rating), ratingCount: Number(r!.ratingCount) };
    },

    /**
     * Brings one story's mean, count and score up to date with its rating rows, writing the row
     * only when they changed. One statement: it recomputes, so a rerun or a race changes nothing
     * twice. Answers whether the row changed.
     */
    refreshRating: async (storyId: number) =>
      (
        await rows(sql`
          update stories s set rating = agg.mean, rating_count = agg.n,
            rating_score = ${scoreOf(sql`agg.mean * agg.n`, sql`agg.n`, sql`site.m`)}
          from (select count(*)::int as n, round(coalesce(avg(rating), 0)::numeric, 2) as mean
                from ratings where story_id = ${storyId}) agg,
            (select ${siteMean} as m) site
          where s.id = ${storyId} and (s.rating <> agg.mean::real or s.rating_count <> agg.n)
          returning s.id`)
      ).length > 0,

    /**
     * The same for every story whose mean or count no longer matches its rating rows (the
     * roll-up's catch-up for a refresh that was lost). Answers how many changed.
     */
    refreshAllRatings: async () =>
      (
        await rows(sql`
          with agg as (
            select s.id, coalesce(r.n, 0) as n, coalesce(r.mean, 0) as mean
            from stories s left join (
              select story_id, count(*)::int as n, round(avg(rating)::numeric, 2) as mean
              from ratings group by story_id) r on r.story_id = s.id)
          update stories s set rating = agg.mean, rating_count = agg.n
          from agg where agg.id = s.id and (s.rating <> agg.mean::real or s.rating_count <> agg.n)
          returning s.id`)
      ).length,

    /**
     * Recomputes every story's mean and count from its rating rows, then the scores
     * (the seed, after it writes its rating rows in a batch).
     */
    recomputeAllRatings: async () => {
      await db.execute(sql`
        update stories s set
          rating = coalesce((select round(avg(r.rating)::numeric, 2) from ratings r
            where r.story_id = s.id), 0),
          rating_count = (select count(*) from ratings r where r.story_id = s.id)`);
    },

    /**
     * Brings every story's score up to date with the current site mean (a story's own rating
     * recomputes only its own score). Returns how many changed.
     */
    refreshScores: async () =>
      (
        await rows<{ id: number }>(sql`
          with site as (select ${siteMean} as m),
            next as (select s.id, ${scoreOf(sql`s.rating * s.rating_count`, sql`s.rating_count`, sql`site.m`)} as score
              from stories s, site)
          update stories s set rating_score = next.score from next
          where next.id = s.id and abs(s.rating_score - next.score) > 0.0001
          returning s.id`)
      ).length,

    /** Adds (idempotent) a bookmark on a released story; false when there is no such story. */
    addBookmark: async (userId: number, storyId: number) =>
      (
        await rows(sql`
          insert into bookmarks (user_id, story_id)
          select ${userId}, s.id from stories s where s.id = ${storyId} and ${published}
          on conflict (user_id, story_id) do update set user_id = excluded.user_id
          returning 1`)
      ).length > 0,

    removeBookmark: (userId: number, storyId: number) =>
      db.execute(sql`delete from bookmarks where user_id = ${userId} and story_id = ${storyId}`),

    /** The reader's bookmarked public stories, newest bookmark first, with their progress. */
    bookmarks: async (userId: number, limit: number) => {
      const found = await rows<ListRow & ProgressRow & { bookmarkedAt: Date | string }>(sql`
        select ${listColumns}, b.created_at as "bookmarkedAt", p.part_number as "partNumber",
          p.position, p.updated_at as "progressAt"
        from bookmarks b join stories s on s.id = b.story_id join authors a on a.id = s.author_id
          left join reading_progress p on p.user_id = b.user_id and p.story_id = b.story_id
        where b.user_id = ${userId} and ${published}
        order by b.created_at desc, s.id desc limit ${limit}`);
      return found.map((r) => ({
        story: toItem(r) satisfies StoryListItem,
        bookmarkedAt: new Date(r.bookmarkedAt).toISOString(),
        progress: toProgress(r),
      }));
    },

    /**
     * Saves where the reader is, in one statement: the insert selects the published part, so a
     * part that does not exist writes nothing (and the caller answers 404).
     */
    saveProgress: async (userId: number, storyId: number, partNumber: number, position: number) =>
      (
        await rows(sql`
          insert into reading_progress (user_id, story_id, part_number, position, updated_at)
          select ${userId}, e.story_id, e.part_number, ${position}, now()
          from episodes e join stories s on s.id = e.story_id
          where e.story_id = ${storyId} and e.part_number = ${partNumber}
            and e.status = 'published' and ${published}
          on conflict (user_id, story_id) do update set part_number = excluded.part_number,
            position = excluded.position, updated_at = excluded.updated_at
          returning 1`)
      ).length > 0,

    /**
     * Continue reading: the reader's open public stories, most recent first. A story whose last
     * published part they have read to the end is left out until a new episode comes.
     */
    continueReading: async (userId: number, limit: number, finishedAt: number) => {
      const found = await rows<ListRow & ProgressRow>(sql`
        select ${listColumns}, p.part_number as "partNumber", p.position,
          p.updated_at as "progressAt"
        from reading_progress p join stories s on s.id = p.story_id
          join authors a on a.id = s.author_id
        where p.user_id = ${userId} and ${published}
          and not (p.part_number >= s.number_of_parts and p.position > ${finishedAt})
        order by p.updated_at desc, s.id desc limit ${limit}`);
      return found.map((r) => ({ story: toItem(r), progress: toProgress(r)! }));
    },

    /** Counts a view unless this reader's view of this part was counted this day already. */
    recordView: async (
      storyId: number,
      userId: number,
      partNumber: number,
      day: string,
      medium: string,
    ) =>
      (
        await rows(sql`
          insert into story_views (story_id, user_id, part_number, day, medium)
          values (${storyId}, ${userId}, ${partNumber}, ${day}::date, ${medium})
          on conflict do nothing returning 1`)
      ).length > 0,

    /**
     * Recomputes views per story per day from story_views for the days from `since` on (all days
     * when null), then stories.reads = reads_base + all its days' views where those days changed. Recomputing rather than adding makes it safe to run twice. Returns how many rows
     * changed.
     */
    rollupViews: async (since: string | null) => {
      const from = since === null ? sql`true` : sql`v.day >= ${since}::date`;
      const fromDays = since === null ? sql`true` : sql`d.day >= ${since}::date`;
      const days = await rows<{ storyId: number }>(sql`
        insert into story_view_days (story_id, day, views)
        select v.story_id, v.day, count(*)::int from story_views v where ${from}
        group by v.story_id, v.day
        on conflict (story_id, day) do update set views = excluded.views
          where story_view_days.views is distinct from excluded.views
        returning story_id as "storyId"`);
      // Days whose views went away (a deleted account takes its views with it).
      const gone = await rows<{ storyId: number }>(sql`
        delete from story_view_days d where ${fromDays} and not exists (
          select 1 from story_views v where v.story_id = d.story_id and v.day = d.day)
        returning story_id as "storyId"`);
      // Reads change only where days changed (reads_base never does); a full run checks all.
      const ids = [...new Set([...days, ...gone].map((r) => Number(r.storyId)))];
      if (since !== null && !ids.length) return 0;
      const touched =
        since === null
          ? sql`true`
          : sql`s.id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`;
      const reads = await rows<{ id: number }>(sql`
        update stories s set reads = s.reads_base + coalesce(
          (select sum(d.views)::int from story_view_days d where d.story_id = s.id), 0)
        where ${touched} and s.reads <> s.reads_base + coalesce(
          (select sum(d.views)::int from story_view_days d where d.story_id = s.id), 0)
        returning s.id`);
      return days.length + gone.length + reads.length;
    },
  };
};
export type EngagementRepo = ReturnType<typeof engagementRepo>;
