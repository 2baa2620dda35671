import { sql } from 'drizzle-orm';
import type { ContestRules } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';

/** One entry's figures before ranking, as the database counts them. */
export interface EntryFigures {
  entryId: number;
  storyId: number;
  title: string;
  language: 'sinhala' | 'english';
  authorId: number;
  author: string;
  createdAt: Date | string;
  rubric: number | null;
  winnerPlace: number | null;
  /** Published episodes by the contest's end (or now, while it runs). */
  parts: number;
  /** Counted readers (see `contestFigures`). */
  readers: number;
  /** Sum of counted readers' ratings of the entry, each divided by 5 (0 to 1 each). */
  ratingWeight: number;
}

/** A ranked entry, as `object.contestantList` holds it. */
export interface Contestant {
  track: 'sinhala' | 'english';
  rank: number;
  storyId: number;
  title: string;
  authorId: number;
  author: string;
  score: number;
  engagedReaders: number;
  ratingWeight: number;
  rubric: number | null;
  winnerPlace: number | null;
}

/**
 * Each entry with its counted readers and their ratings' weight. A reader counts for an entry
 * once, when all of these hold:
 * - between the contest's start and end they opened at least half of the entry's published
 *   episodes (distinct parts, from story_views);
 * - their account was at least `minAgeDays` old at the contest's end;
 * - by the end they had also read a story by another author (accounts that read nothing else
 *   do not count);
 * - they are not the entry's author.
 * Only a counted reader's rating (given before the end) adds weight.
 */
export async function contestFigures(
  db: Db,
  c: { id: number; startsAt: Date | string; endsAt: Date | string },
  minAgeDays: number,
): Promise<EntryFigures[]> {
  const start = new Date(c.startsAt).toISOString();
  const end = new Date(c.endsAt).toISOString();
  const { rows } = (await db.execute(sql`
    with e as (
      select ce.id as entry_id, ce.story_id, ce.rubric, ce.winner_place, ce.created_at,
        s.title, s.language, s.author_id, a.name as author, a.user_id as author_user,
        (select count(*)::int from episodes ep where ep.story_id = s.id
          and ep.status = 'published' and ep.part_number is not null
          and ep.published_at <= least(now(), ${end}::timestamptz)) as parts
      from campaign_entries ce
      join stories s on s.id = ce.story_id
      join authors a on a.id = s.author_id
      where ce.campaign_id = ${c.id}
    ),
    reads as (
      select e.entry_id, v.user_id, count(distinct v.part_number)::int as parts_read
      from e join story_views v on v.story_id = e.story_id
      where v.created_at >= ${start}::timestamptz and v.created_at < ${end}::timestamptz
      group by e.entry_id, v.user_id
    ),
    counted as (
      select r.entry_id, r.user_id, e.story_id
      from reads r
      join e on e.entry_id = r.entry_id
      join users u on u.id = r.user_id
      where e.parts > 0 and r.parts_read * 2 >= e.parts
        and r.user_id is distinct from e.author_user
        and u.created_at <= ${end}::timestamptz - make_interval(days => ${minAgeDays})
        and exists (
          select 1 from story_views o join stories os on os.id = o.story_id
          where o.user_id = r.user_id and os.author_id <> e.author_id
            and o.created_at < ${end}::timestamptz)
    )
    select e.entry_id as "entryId", e.story_id as "storyId", e.title, e.language,
      e.author_id as "authorId", e.author, e.created_at as "createdAt", e.rubric,
      e.winner_place as "winnerPlace", e.parts,
      count(c.user_id)::int as readers,
      coalesce(sum(rt.rating) / 5.0, 0)::float8 as "ratingWeight"
    from e
    left join counted c on c.entry_id = e.entry_id
    left join ratings rt on rt.story_id = c.story_id and rt.user_id = c.user_id
      and rt.updated_at < ${end}::timestamptz
    group by e.entry_id, e.story_id, e.title, e.language, e.author_id, e.author, e.created_at,
      e.rubric, e.winner_place, e.parts
    order by e.entry_id`)) as unknown as { rows: EntryFigures[] };
  return rows.map((r) => ({
    ...r,
    readers: Number(r.readers),
    ratingWeight: Number(r.ratingWeight),
    rubric: r.rubric === null ? null : Number(r.rubric),
  }));
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Ranks the entries per language track. Reader points R = counted readers + their ratings'
 * weight. Score = (1 - w) * 100 * R / Rmax + w * rubric, where Rmax is the highest R in the
 * track and w the rubric share the editors set (0: readers alone decide); rubric 0 to 100, none
 * counts as 0. Ties: more reader points, then the earlier entry.
 */
export function rankContest(rules: ContestRules, figures: EntryFigures[]): Contestant[] {
  const tracks: ('sinhala' | 'english')[] =
    rules.track === 'both' ? ['sinhala', 'english'] : [rules.track];
  const w = rules.rubricShare;
  const out: Contestant[] = [];
  for (const track of tracks) {
    const entries = figures.filter((f) => f.language === track);
    const points = (f: EntryFigures) => f.readers + f.ratingWeight;
    const max = Math.max(0, ...entries.map(points));
    const scored = entries.map((f) => ({
      f,
      r: points(f),
      score: round2((1 - w) * (max > 0 ? (100 * points(f)) / max : 0) + w * (f.rubric ?? 0)),
    }));
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.r - a.r ||
        new Date(a.f.createdAt).getTime() - new Date(b.f.createdAt).getTime() ||
        a.f.entryId - b.f.entryId,
    );
    scored.forEach(({ f, score }, i) =>
      out.push({
        track,
        rank: i + 1,
        storyId: f.storyId,
        title: f.title,
        authorId: f.authorId,
        author: f.author,
        score,
        engagedReaders: f.readers,
        ratingWeight: round2(f.ratingWeight),
        rubric: f.rubric,
        winnerPlace: f.winnerPlace,
      }),
    );
  }
  return out;
}
