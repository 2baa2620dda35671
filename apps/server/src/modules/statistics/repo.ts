import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * The window a statistics answer counts: Sri Lanka days from `fromDay` (null: all time) and the
 * same bound as a moment (`fromAt`, the start of that day in Sri Lanka) for timestamped rows.
 */
export interface Window {
  fromDay: string | null;
  fromAt: string | null;
}

/** Rows of the stories the author sees in their statistics. */
export interface StoryRow {
  storyId: number;
  title: string;
  language: string;
  membersOnly: boolean;
  readsTotal: number;
  rating: number;
  ratingCount: number;
  reads: number;
  ratings: number;
  comments: number;
  bookmarks: number;
  alertSubscribers: number;
  alertsGained: number;
  membersGained: number;
}

export interface EpisodeRow {
  storyId: number;
  partNumber: number;
  title: string;
  reads: number;
  readers: number;
  comments: number;
}

/** One period's summary figures as the database counts them (averages may be null). */
export interface FiguresRow {
  reads: number;
  readers: number;
  ratings: number;
  ratingAverage: number | null;
  comments: number;
  bookmarks: number;
  followersGained: number;
  alertsGained: number;
  membersGained: number;
  episodesPublished: number;
}

/**
 * The stories an author's statistics cover: any with an episode out now or once (a part
 * number was given) or scheduled. Drafts-only stories have nothing to count.
 */
const covered = sql`(s.last_part_number > 0 or exists (select 1 from episodes e
  where e.story_id = s.id and e.status in ('published', 'scheduled')))`;

/** `column` within [from, to): `true` when unbounded, so the planner drops it. */
const between = (column: SQL, from: string | null, to: string | null, cast: SQL) => {
  const parts: SQL[] = [];
  if (from !== null) parts.push(sql`${column} >= ${from}::${cast}`);
  if (to !== null) parts.push(sql`${column} < ${to}::${cast}`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
};
const DAY = sql.raw('date');
const AT = sql.raw('timestamptz');

const int = (v: unknown) => Number(v ?? 0);

/** The SQL of author statistics and their roll-up. Every figure is an aggregate in SQL. */
export const statisticsRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  /** The author's story ids, as a subquery (served by stories_author_idx). */
  const storiesOf = (authorId: number) =>
    sql`(select id from stories where author_id = ${authorId})`;

  return {
    /** The viewer's author record; undefined for a reader who is not an author. */
    authorOfUser: async (userId: number) =>
      (
        await rows<{ authorId: number; userId: number }>(sql`
          select id as "authorId", user_id as "userId" from authors where user_id = ${userId}`)
      )[0],

    /** The author's covered stories, newest first, each with its figures for the window. */
    stories: async (authorId: number, w: Window) => {
      const found = await rows<StoryRow>(sql`
        select s.id as "storyId", s.title, s.language, s.members_only as "membersOnly",
          s.reads as "readsTotal", s.rating, s.rating_count as "ratingCount",
          coalesce((select sum(d.views) from story_view_days d
            where d.story_id = s.id and ${between(sql`d.day`, w.fromDay, null, DAY)}), 0)::int as reads,
          (select count(*) from ratings r
            where r.story_id = s.id and ${between(sql`r.updated_at`, w.fromAt, null, AT)})::int as ratings,
          (select count(*) from comments c
            where c.story_id = s.id and ${between(sql`c.created_at`, w.fromAt, null, AT)})::int as comments,
          (select count(*) from bookmarks b
            where b.story_id = s.id and ${between(sql`b.created_at`, w.fromAt, null, AT)})::int as bookmarks,
          (select count(*) from story_alerts al where al.story_id = s.id)::int as "alertSubscribers",
          (select count(*) from story_alerts al
            where al.story_id = s.id and ${between(sql`al.created_at`, w.fromAt, null, AT)})::int as "alertsGained",
          (select count(*) from membership_joins j
            where j.story_id = s.id and ${between(sql`j.joined_at`, w.fromAt, null, AT)})::int as "membersGained"
        from stories s
        where s.author_id = ${authorId} and ${covered}
        order by s.created_at desc, s.id desc`);
      return found.map((r) => ({
        ...r,
        storyId: int(r.storyId),
        readsTotal: int(r.readsTotal),
        rating: Number(r.rating),
        ratingCount: int(r.ratingCount),
        reads: int(r.reads),
        ratings: int(r.ratings),
        comments: int(r.comments),
        bookmarks: int(r.bookmarks),
        alertSubscribers: int(r.alertSubscribers),
        alertsGained: int(r.alertsGained),
        membersGained: int(r.membersGained),
      }));
    },

    /** Current ratings of the author's stories counted per story and value. */
    ratingsByValue: async (authorId: number) =>
      (
        await rows<{ storyId: number; rating: number; count: number }>(sql`
          select r.story_id as "storyId", r.rating, count(*)::int as count
          from ratings r where r.story_id in ${storiesOf(authorId)}
          group by r.story_id, r.rating order by r.story_id, r.rating`)
      ).map((r) => ({ storyId: int(r.storyId), rating: Number(r.rating), count: int(r.count) })),

    /** Views per story per day in the window (days with views only), from the roll-up. */
    storyDays: async (authorId: number, w: Window) =>
      (
        await rows<{ storyId: number; day: string; reads: number }>(sql`
          select d.story_id as "storyId", d.day::text as day, d.views as reads
          from story_view_days d
          where d.story_id in ${storiesOf(authorId)} and ${between(sql`d.day`, w.fromDay, null, DAY)}
          order by d.story_id, d.day`)
      ).map((r) => ({ storyId: int(r.storyId), day: r.day, reads: int(r.reads) })),

    /** Views per day over all the author's stories in the window. */
    authorDays: async (authorId: number, w: Window) =>
      (
        await rows<{ day: string; reads: number }>(sql`
          select d.day::text as day, sum(d.views)::int as reads
          from story_view_days d
          where d.story_id in ${storiesOf(authorId)} and ${between(sql`d.day`, w.fromDay, null, DAY)}
          group by d.day order by d.day`)
      ).map((r) => ({ day: r.day, reads: int(r.reads) })),

    /**
     * Every numbered episode of the author's stories with its views in the window, readers who
     * ever opened it (from the roll-up) and comments in the window. All time reads the part's
     * total from the roll-up instead of summing every day.
     */
    episodes: async (authorId: number, w: Window) =>
      (
        await rows<EpisodeRow>(sql`
          select e.story_id as "storyId", e.part_number as "partNumber", e.title,
            ${w.fromDay === null ? sql`coalesce(pr.views, 0)` : sql`coalesce(pv.reads, 0)`}::int as reads,
            coalesce(pr.readers, 0)::int as readers, coalesce(c.n, 0)::int as comments
          from episodes e
            left join (select story_id, part_number, sum(views) as reads from story_part_view_days
              where ${w.fromDay === null ? sql`false` : sql`story_id in ${storiesOf(authorId)}`}
                and ${between(sql`day`, w.fromDay, null, DAY)}
              group by story_id, part_number) pv
              on pv.story_id = e.story_id and pv.part_number = e.part_number
            left join story_part_reach pr
              on pr.story_id = e.story_id and pr.part_number = e.part_number
            left join (select story_id, part_number, count(*) as n from comments
              where story_id in ${storiesOf(authorId)} and ${between(sql`created_at`, w.fromAt, null, AT)}
              group by story_id, part_number) c
              on c.story_id = e.story_id and c.part_number = e.part_number
          where e.story_id in ${storiesOf(authorId)} and e.part_number is not null
          order by e.story_id, e.part_number`)
      ).map((r) => ({
        storyId: int(r.storyId),
        partNumber: int(r.partNumber),
        title: r.title,
        reads: int(r.reads),
        readers: int(r.readers),
        comments: int(r.comments),
      })),

    /** Followers of the author's account now, and those who began following in the window. */
    followers: async (userId: number, w: Window) => {
      const [r] = await rows<{ now: number; gained: number }>(sql`
        select count(*)::int as now,
          (count(*) filter (where ${between(sql`created_at`, w.fromAt, null, AT)}))::int as gained
        from follows where followed_id = ${userId}`);
      return { now: int(r?.now), gained: int(r?.gained) };
    },

    /**
     * The summary's figures for [from, to) (Sri Lanka days and the same bounds as moments), in
     * one statement of aggregates. `from` null counts from the beginning.
     */
    figures: async (
      a: { authorId: number; userId: number },
      fromDay: string | null,
      toDay: string | null,
      fromAt: string | null,
      toAt: string | null,
    ): Promise<FiguresRow> => {
      const days = (col: SQL) => between(col, fromDay, toDay, DAY);
      const at = (col: SQL) => between(col, fromAt, toAt, AT);
      const mine = storiesOf(a.authorId);
      // Readers come from one row per reader and story with the days they read it.
      const readDays =
        fromDay === null && toDay === null
          ? sql`true`
          : sql`days && daterange(${fromDay}::date, ${toDay}::date)`;
      const [r] = await rows<FiguresRow>(sql`
        select
          (select coalesce(sum(views), 0) from story_view_days
            where story_id in ${mine} and ${days(sql`day`)})::int as reads,
          (select count(distinct user_id) from story_readers
            where story_id in ${mine} and ${readDays})::int as readers,
          rt.n::int as ratings, rt.mean as "ratingAverage",
          (select count(*) from comments where story_id in ${mine} and ${at(sql`created_at`)})::int as comments,
          (select count(*) from bookmarks where story_id in ${mine} and ${at(sql`created_at`)})::int as bookmarks,
          (select count(*) from follows
            where followed_id = ${a.userId} and ${at(sql`created_at`)})::int as "followersGained",
          (select count(*) from story_alerts where story_id in ${mine} and ${at(sql`created_at`)})::int as "alertsGained",
          (select count(*) from membership_joins
            where story_id in ${mine} and ${at(sql`joined_at`)})::int as "membersGained",
          (select count(*) from episodes where story_id in ${mine} and part_number is not null
            and published_at is not null and ${at(sql`published_at`)})::int as "episodesPublished"
        from (select count(*) as n, round(avg(rating)::numeric, 2)::float8 as mean from ratings
          where story_id in ${mine} and ${at(sql`updated_at`)}) rt`);
      return {
        reads: int(r!.reads),
        readers: int(r!.readers),
        ratings: int(r!.ratings),
        ratingAverage: r!.ratingAverage === null ? null : Number(r!.ratingAverage),
        comments: int(r!.comments),
        bookmarks: int(r!.bookmarks),
        followersGained: int(r!.followersGained),
        alertsGained: int(r!.alertsGained),
        membersGained: int(r!.membersGained),
        episodesPublished: int(r!.episodesPublished),
      };
    },

    /** Totals now: followers, readers with an alert on, covered stories. */
    totals: async (a: { authorId: number; userId: number }) => {
      const [r] = await rows<{ followers: number; alertSubscribers: number; stories: number }>(sql`
        select (select count(*) from follows where followed_id = ${a.userId})::int as followers,
          (select count(*) from story_alerts
            where story_id in ${storiesOf(a.authorId)})::int as "alertSubscribers",
          (select count(*) from stories s
            where s.author_id = ${a.authorId} and ${covered})::int as stories`);
      return {
        followers: int(r?.followers),
        alertSubscribers: int(r?.alertSubscribers),
        stories: int(r?.stories),
      };
    },

    /**
     * Recomputes views per part per day from story_views for the days from `since` on (every day
     * when null), and drops days whose views went away. Recomputing, not adding: a rerun changes
     * nothing. Returns how many rows changed.
     */
    rollupPartDays: async (since: string | null) => {
      const from = since === null ? sql`true` : sql`v.day >= ${since}::date`;
      const fromDays = since === null ? sql`true` : sql`d.day >= ${since}::date`;
      const [r] = await rows<{ changed: number }>(sql`
        with agg as (
          select v.story_id, v.part_number, v.day, count(*)::int as views
          from story_views v where ${from} group by v.story_id, v.part_number, v.day),
        up as (
          insert into story_part_view_days (story_id, part_number, day, views)
          select story_id, part_number, day, views from agg
          on conflict (story_id, part_number, day) do update set views = excluded.views
            where story_part_view_days.views is distinct from excluded.views
          returning 1),
        gone as (
          delete from story_part_view_days d where ${fromDays} and not exists (
            select 1 from agg where agg.story_id = d.story_id
              and agg.part_number = d.part_number and agg.day = d.day)
          returning 1)
        select (select count(*) from up) + (select count(*) from gone) as changed`);
      return int(r?.changed);
    },

    /**
     * Recomputes each reader's days per story (story_readers) from story_views: from `since` on
     * (the days before are kept as they were), or every day when null (a full run also drops
     * readers left without views). Recomputing, not adding: a rerun changes nothing.
     */
    rollupReaders: async (since: string | null) => {
      const from = since === null ? sql`true` : sql`v.day >= ${since}::date`;
      // The days a row keeps from before `since`; a full run keeps none.
      const kept =
        since === null
          ? sql`excluded.days`
          : sql`(story_readers.days - datemultirange(daterange(${since}::date, null))) + excluded.days`;
      const [r] = await rows<{ changed: number }>(sql`
        with agg as (
          select v.story_id, v.user_id, range_agg(daterange(v.day, v.day + 1)) as days
          from story_views v where ${from} group by v.story_id, v.user_id),
        up as (
          insert into story_readers (story_id, user_id, days)
          select story_id, user_id, days from agg
          on conflict (story_id, user_id) do update set days = ${kept}
            where story_readers.days is distinct from ${kept}
          returning 1),
        gone as (
          delete from story_readers p where ${since === null ? sql`true` : sql`false`}
            and not exists (select 1 from agg
              where agg.story_id = p.story_id and agg.user_id = p.user_id)
          returning 1)
        select (select count(*) from up) + (select count(*) from gone) as changed`);
      return int(r?.changed);
    },

    /**
     * Recomputes readers per part (distinct readers who ever opened it) and its views ever, for the parts viewed
     * from `since` on (every part when null; a full run also drops parts left without views).
     */
    rollupReach: async (since: string | null) => {
      const parts =
        since === null
          ? sql`true`
          : sql`(v.story_id, v.part_number) in (select distinct story_id, part_number
              from story_views where day >= ${since}::date)`;
      const [r] = await rows<{ changed: number }>(sql`
        with agg as (
          select v.story_id, v.part_number, count(distinct v.user_id)::int as readers,
            count(*)::int as views
          from story_views v where ${parts} group by v.story_id, v.part_number),
        up as (
          insert into story_part_reach (story_id, part_number, readers, views)
          select story_id, part_number, readers, views from agg
          on conflict (story_id, part_number) do update
            set readers = excluded.readers, views = excluded.views
            where (story_part_reach.readers, story_part_reach.views)
              is distinct from (excluded.readers, excluded.views)
          returning 1),
        gone as (
          delete from story_part_reach p where ${since === null ? sql`true` : sql`false`}
            and not exists (select 1 from agg
              where agg.story_id = p.story_id and agg.part_number = p.part_number)
          returning 1)
        select (select count(*) from up) + (select count(*) from gone) as changed`);
      return int(r?.changed);
    },
  };
};
export type StatisticsRepo = ReturnType<typeof statisticsRepo>;
