import { sql, type SQL } from 'drizzle-orm';
import {
  PRODUCT_APP_ID,
  SINGLISH_KEY_VERSION,
  type EpisodeStatus,
  type StoryStatus,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { singlishKeyOf } from '../stories/singlish-keys.ts';

export interface AuthorRow {
  id: number;
  userId: number;
  name: string;
  bio: string;
  appId: string;
  keyword: string;
}

export interface EpisodeRow {
  id: number;
  storyId: number;
  partNumber: number | null;
  title: string;
  content: string;
  membersOnly: boolean;
  words: number;
  status: EpisodeStatus;
  publishAt: Date | null;
  publishedAt: Date | null;
  updatedAt: Date;
}

export interface StoryFields {
  title: string;
  description: string;
  language: 'sinhala' | 'english';
  kind: 0 | 2 | 3;
  category: string;
  membersOnly: boolean;
  ongoing: boolean;
  releaseAt: Date | null;
  seriesId: number | null;
  season: number | null;
}

/** A story as stored: what an author writes, plus what the publishing path keeps. */
export interface StoryRow extends StoryFields {
  id: number;
  authorId: number;
  numberOfParts: number;
  coverUploadedAt: Date | null;
}

export interface EpisodeFields {
  title: string;
  content: string;
  membersOnly: boolean;
  words: number;
}

const date = (v: unknown): Date | null =>
  v === null || v === undefined ? null : new Date(String(v));

const storyColumns = sql`id, author_id as "authorId", title, description, language, kind, category,
  members_only as "membersOnly", ongoing, release_at as "releaseAt", series_id as "seriesId",
  season, number_of_parts as "numberOfParts", cover_uploaded_at as "coverUploadedAt"`;

const listedEpisodeColumns = sql`id, story_id as "storyId", part_number as "partNumber", title,
  members_only as "membersOnly", words, status, publish_at as "publishAt",
  published_at as "publishedAt", updated_at as "updatedAt"`;
const episodeColumns = sql`${listedEpisodeColumns}, content`;

const toStory = (r: StoryRow): StoryRow => ({
  ...r,
  kind: Number(r.kind) as 0 | 2 | 3,
  releaseAt: date(r.releaseAt),
  coverUploadedAt: date(r.coverUploadedAt),
  numberOfParts: Number(r.numberOfParts),
});
const toEpisode = (r: EpisodeRow): EpisodeRow => ({
  ...r,
  publishAt: date(r.publishAt),
  publishedAt: date(r.publishedAt),
  updatedAt: date(r.updatedAt)!,
});

/** Queries behind authors' writing and publishing. Pass a transaction to run inside it. */
export const publishingRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];

  return {
    authorOfUser: (userId: number) =>
      one<AuthorRow>(sql`
        select a.id, a.user_id as "userId", a.name, a.bio, b.app_id as "appId", b.keyword
        from authors a join billing_apps b on b.app_id = coalesce(a.app_id, ${PRODUCT_APP_ID})
        where a.user_id = ${userId}`),

    /** Inserts the author; undefined when the user is one already or the name is taken. */
    insertAuthor: (v: { userId: number; name: string; bio: string }) =>
      one<{ id: number }>(sql`
        insert into authors (user_id, name, bio, name_key, singlish_key_version)
        values (${v.userId}, ${v.name}, ${v.bio}, ${singlishKeyOf(v.name)}, ${SINGLISH_KEY_VERSION})
        on conflict do nothing returning id`),

    nameTaken: async (name: string) =>
      (await rows(sql`select 1 from authors where fold_key(name) = fold_key(${name})`)).length > 0,

    setUserAuthor: (userId: number) =>
      db.execute(sql`update users set is_author = true where id = ${userId}`),

    story: async (storyId: number, opts: { lock?: boolean } = {}) => {
      const r = await one<StoryRow>(
        sql`select ${storyColumns} from stories where id = ${storyId} ${opts.lock ? sql`for update` : sql``}`,
      );
      return r && toStory(r);
    },

    insertStory: async (authorId: number, v: StoryFields, at: Date) =>
      (await one<{ id: number }>(sql`
        insert into stories (author_id, title, description, language, kind, category,
          members_only, ongoing, release_at, series_id, season, created_at, updated_at)
        values (${authorId}, ${v.title}, ${v.description}, ${v.language}, ${v.kind}, ${v.category},
          ${v.membersOnly}, ${v.ongoing}, ${v.releaseAt}, ${v.seriesId}, ${v.season}, ${at}, ${at})
        returning id`))!.id,

    updateStory: (storyId: number, v: StoryFields) =>
      db.execute(sql`
        update stories set title = ${v.title}, description = ${v.description},
          language = ${v.language}, kind = ${v.kind}, category = ${v.category},
          members_only = ${v.membersOnly}, ongoing = ${v.ongoing}, release_at = ${v.releaseAt},
          series_id = ${v.seriesId}, season = ${v.season}, updated_at = now()
        where id = ${storyId}`),

    series: (seriesId: number) =>
      one<{ id: number; authorId: number | null }>(
        sql`select id, author_id as "authorId" from series where id = ${seriesId}`,
      ),

    insertSeries: async (title: string, authorId: number) =>
      (await one<{ id: number }>(
        sql`insert into series (title, author_id) values (${title}, ${authorId}) returning id`,
      ))!.id,

    setSeason: (storyId: number, seriesId: number, season: number) =>
      db.execute(
        sql`update stories set series_id = ${seriesId}, season = ${season} where id = ${storyId}`,
      ),

    nextSeason: async (seriesId: number) =>
      Number(
        (
          await one<{ n: number }>(
            sql`select coalesce(max(season), 0) + 1 as n from stories where series_id = ${seriesId}`,
          )
        )?.n ?? 1,
      ),

    episode: async (episodeId: number, opts: { lock?: boolean } = {}) => {
      const r = await one<EpisodeRow>(
        sql`select ${episodeColumns} from episodes where id = ${episodeId} ${opts.lock ? sql`for update` : sql``}`,
      );
      return r && toEpisode(r);
    },

    insertEpisode: async (storyId: number, v: EpisodeFields, at: Date) =>
      (await one<{ id: number }>(sql`
        insert into episodes (story_id, title, content, members_only, words, status, created_at,
          updated_at)
        values (${storyId}, ${v.title}, ${v.content}, ${v.membersOnly}, ${v.words}, 'draft', ${at},
          ${at})
        returning id`))!.id,

    updateEpisodeText: (episodeId: number, v: EpisodeFields) =>
      db.execute(sql`
        update episodes set title = ${v.title}, content = ${v.content},
          members_only = ${v.membersOnly}, words = ${v.words}, updated_at = now()
        where id = ${episodeId}`),

    setEpisodeStatus: (
      episodeId: number,
      v: { status: EpisodeStatus; publishAt: Date | null; partNumber?: number; publishedAt?: Date },
    ) =>
      db.execute(sql`
        update episodes set status = ${v.status}, publish_at = ${v.publishAt},
          part_number = coalesce(part_number, ${v.partNumber ?? null}),
          published_at = coalesce(published_at, ${v.publishedAt ?? null}), updated_at = now()
        where id = ${episodeId}`),

    /** Takes the story's next part number; numbers are never handed out twice. */
    takePartNumber: async (storyId: number) =>
      Number(
        (await one<{ n: number }>(sql`
          update stories set last_part_number = last_part_number + 1 where id = ${storyId}
          returning last_part_number as n`))!.n,
      ),

    /** Any episode of the story out before this one? (Its first one is NEW STORY for readers.) */
    hasOtherPublished: async (storyId: number, episodeId: number) =>
      (
        await rows(
          sql`select 1 from episodes where story_id = ${storyId} and id <> ${episodeId} and published_at is not null limit 1`,
        )
      ).length > 0,

    /** Recounts what readers see after a status change: the paginator's end and the story's date. */
    refreshStoryParts: (storyId: number, at: Date | null) =>
      db.execute(sql`
        update stories set number_of_parts = coalesce(
            (select max(part_number) from episodes where story_id = ${storyId} and status = 'published'), 0),
          updated_at = ${at ? sql`greatest(updated_at, ${at})` : sql`updated_at`}
        where id = ${storyId}`),

    deleteEpisode: (episodeId: number) =>
      db.execute(sql`delete from episodes where id = ${episodeId}`),

    setCoverUploaded: (storyId: number) =>
      db.execute(sql`update stories set cover_uploaded_at = now() where id = ${storyId}`),

    ownStories: (authorId: number) =>
      rows<{
        storyId: number;
        title: string;
        description: string;
        language: 'sinhala' | 'english';
        kind: number;
        category: string;
        membersOnly: boolean;
        ongoing: boolean;
        releaseAt: Date | string | null;
        seriesId: number | null;
        season: number | null;
        status: StoryStatus;
        published: number;
        scheduled: number;
        drafts: number;
        numberOfParts: number;
        reads: number;
        rating: number;
        updatedAt: Date | string;
      }>(sql`
        select s.id as "storyId", s.title, s.description, s.language, s.kind, s.category,
          s.members_only as "membersOnly", s.ongoing, s.release_at as "releaseAt",
          s.series_id as "seriesId", s.season, s.number_of_parts as "numberOfParts", s.reads,
          s.rating, s.updated_at as "updatedAt",
          count(*) filter (where e.status = 'published')::int as published,
          count(*) filter (where e.status = 'scheduled')::int as scheduled,
          count(*) filter (where e.status = 'draft')::int as drafts,
          case
            when s.number_of_parts > 0 and (s.release_at is null or s.release_at <= now()) then 'public'
            when s.release_at > now() and count(*) filter (where e.status <> 'draft') > 0 then 'upcoming'
            else 'draft' end as status
        from stories s left join episodes e on e.story_id = s.id
        where s.author_id = ${authorId}
        group by s.id order by s.updated_at desc, s.id desc`),

    ownEpisodes: async (storyId: number) =>
      (
        await rows<EpisodeRow>(sql`
          select ${listedEpisodeColumns}, '' as content from episodes where story_id = ${storyId}
          order by part_number nulls last, coalesce(publish_at, created_at), id`)
      ).map(toEpisode),
  };
};
export type PublishingRepo = ReturnType<typeof publishingRepo>;
