import { sql, type SQL } from 'drizzle-orm';
import { ENGAGEMENT, type LeaderboardBy } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { published } from '../stories/repo.ts';
import { DEFAULT_PRIOR_MEAN } from '../engagement/repo.ts';

/**
 * The rows a ranking is computed from. Days are Sri Lanka days ('YYYY-MM-DD', inclusive), as
 * story_view_days keeps them; rating times are the instants those days start.
 */
export interface RankingWindows {
  /** All time: reads are stories.reads, and a week ago is those reads less the last week's views. */
  allTime: boolean;
  /** Views of the period (for all time: the last week, taken off to get a week ago). */
  viewsFrom: string;
  viewsTo: string;
  /** Views of the period before (unused for all time). */
  prevViewsFrom: string;
  prevViewsTo: string;
  /** Ratings given or changed from here on count for the period; null for all time. */
  ratingsFrom: Date | null;
  /** Ratings of the period before: [prevRatingsFrom, prevRatingsTo); a null start means ever. */
  prevRatingsFrom: Date | null;
  prevRatingsTo: Date;
}

export interface RankRow {
  position: number;
  previousPosition: number | null;
  authorId: number;
  userId: number | null;
  name: string;
  reads: number | string;
  rating: number | null;
  ratingCount: number;
  stories: number;
}

const inRange = (column: SQL, from: Date | null, to: Date | null): SQL => {
  const parts: SQL[] = [];
  if (from) parts.push(sql`${column} >= ${from.toISOString()}::timestamptz`);
  if (to) parts.push(sql`${column} < ${to.toISOString()}::timestamptz`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
};

/** The SQL of the author leaderboard. */
export const leaderboardRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  return {
    /**
     * The top `limit` authors with public stories by reads or by rating over the windows, each
     * with their position on the same board for the period before. One statement: the measures
     * per author for both periods (summed per story first, then per author: a few thousand
     * rows to join instead of every day or rating), then rank() over each. Ties share a position (rank()) and are
     * listed by the next key (for rating, more votes first), then the older author (lower id).
     */
    rankings: (by: LeaderboardBy, w: RankingWindows, limit: number) => {
      const curRated = inRange(sql`r.updated_at`, w.ratingsFrom, null);
      const prevRated = inRange(sql`r.updated_at`, w.prevRatingsFrom, w.prevRatingsTo);
      const lowestDay = w.allTime ? w.viewsFrom : w.prevViewsFrom;
      // The public stories and, per author, their count and all-time reads.
      const base = sql`
        pub as (
          select s.id, s.author_id, s.reads from stories s where ${published}
        ),
        counts as (
          select author_id, count(*)::int as stories, coalesce(sum(reads), 0)::bigint as total_reads
          from pub group by author_id
        )`;
      const ranks = (
        measure: SQL,
        prevMeasure: SQL,
        ranked: SQL,
        prevRanked: SQL,
        tiebreak: SQL,
      ) => sql`
        cur as (
          select m.*, rank() over (order by ${measure} desc)::int as position,
            row_number() over (order by ${measure} desc, ${tiebreak}) as ord
          from m where ${ranked}
        ),
        prev as (
          select author_id, rank() over (order by ${prevMeasure} desc)::int as position
          from m where ${prevRanked}
        )`;

      if (by === 'reads') {
        const readsNow = w.allTime ? sql`c.total_reads` : sql`coalesce(v.cur, 0)`;
        const readsBefore = w.allTime
          ? sql`greatest(c.total_reads - coalesce(v.cur, 0), 0)`
          : sql`coalesce(v.prev, 0)`;
        // Ratings only for the listed authors' stories (by story, indexed): the board shows them.
        return rows<RankRow>(sql`
          with ${base},
          per_story as (
            select d.story_id,
              coalesce(sum(d.views) filter (
                where d.day >= ${w.viewsFrom}::date and d.day <= ${w.viewsTo}::date), 0)::bigint as cur,
              coalesce(sum(d.views) filter (
                where d.day >= ${w.prevViewsFrom}::date and d.day <= ${w.prevViewsTo}::date), 0)::bigint as prev
            from story_view_days d
            where d.day >= ${lowestDay}::date and d.day <= ${w.viewsTo}::date
            group by d.story_id
          ),
          viewed as (
            select p.author_id, sum(ps.cur)::bigint as cur, sum(ps.prev)::bigint as prev
            from per_story ps join pub p on p.id = ps.story_id
            group by p.author_id
          ),
          m as (
            select c.author_id, c.stories, ${readsNow} as reads, ${readsBefore} as prev_reads
            from counts c left join viewed v on v.author_id = c.author_id
          ),
          ${ranks(sql`reads`, sql`prev_reads`, sql`reads > 0`, sql`prev_reads > 0`, sql`author_id`)},
          top as (select * from cur order by ord limit ${limit}),
          rated as (
            select p.author_id, count(*)::int as n, sum(r.rating)::float8 as total
            from top join pub p on p.author_id = top.author_id
              join ratings r on r.story_id = p.id
            where ${curRated}
            group by p.author_id
          )
          select top.position, prev.position as "previousPosition", a.id as "authorId",
            a.user_id as "userId", a.name, top.reads,
            round((rt.total / rt.n)::numeric, 2)::float8 as rating,
            coalesce(rt.n, 0) as "ratingCount", top.stories
          from top join authors a on a.id = top.author_id
            left join prev on prev.author_id = top.author_id
            left join rated rt on rt.author_id = top.author_id
          order by top.ord`);
      }

      const c = sql`${ENGAGEMENT.ratingPriorVotes}::float8`;
      // Only the ratings either period looks at are read (all of them for all time).
      const ratedScan = w.allTime ? sql`true` : inRange(sql`r.updated_at`, w.prevRatingsFrom, null);
      return rows<RankRow>(sql`
        with ${base},
        per_story as (
          select r.story_id,
            count(*) filter (where ${curRated})::int as cur_n,
            coalesce(sum(r.rating) filter (where ${curRated}), 0)::float8 as cur_sum,
            count(*) filter (where ${prevRated})::int as prev_n,
            coalesce(sum(r.rating) filter (where ${prevRated}), 0)::float8 as prev_sum
          from ratings r
          where ${ratedScan}
          group by r.story_id
        ),
        rated as (
          select p.author_id, sum(ps.cur_n)::int as cur_n, sum(ps.cur_sum)::float8 as cur_sum,
            sum(ps.prev_n)::int as prev_n, sum(ps.prev_sum)::float8 as prev_sum
          from per_story ps join pub p on p.id = ps.story_id
          group by p.author_id
        ),
        site as (
          select
            coalesce(sum(cur_sum) / nullif(sum(cur_n), 0), ${DEFAULT_PRIOR_MEAN}::float8) as cur_m,
            coalesce(sum(prev_sum) / nullif(sum(prev_n), 0), ${DEFAULT_PRIOR_MEAN}::float8) as prev_m
          from rated
        ),
        viewed as (
          select p.author_id, sum(d.views)::bigint as cur
          from (
            select story_id, sum(views) as views from story_view_days
            where day >= ${w.viewsFrom}::date and day <= ${w.viewsTo}::date
            group by story_id
          ) d join pub p on p.id = d.story_id
          group by p.author_id
        ),
        m as (
          select c.author_id, c.stories,
            ${w.allTime ? sql`c.total_reads` : sql`coalesce(v.cur, 0)`} as reads,
            rt.cur_n as rating_count,
            round((rt.cur_sum / nullif(rt.cur_n, 0))::numeric, 2)::float8 as rating,
            case when rt.cur_n > 0 then (${c} * site.cur_m + rt.cur_sum) / (${c} + rt.cur_n) end as score,
            case when rt.prev_n > 0 then (${c} * site.prev_m + rt.prev_sum) / (${c} + rt.prev_n) end as prev_score
          from rated rt join counts c on c.author_id = rt.author_id cross join site
            left join viewed v on v.author_id = rt.author_id
        ),
        ${ranks(sql`score`, sql`prev_score`, sql`score is not null`, sql`prev_score is not null`, sql`rating_count desc, author_id`)}
        select cur.position, prev.position as "previousPosition", a.id as "authorId",
          a.user_id as "userId", a.name, cur.reads, cur.rating, cur.rating_count as "ratingCount",
          cur.stories
        from cur join authors a on a.id = cur.author_id
          left join prev on prev.author_id = cur.author_id
        order by cur.ord
        limit ${limit}`);
    },
  };
};

export type LeaderboardRepo = ReturnType<typeof leaderboardRepo>;
