import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { waitOf, type PaceParts } from './pace.ts';

/** A comment or reply as the lists show it, before the viewer's flags are added. */
export interface CommentRow {
  commentId: number;
  storyId: number;
  partNumber: number;
  userId: number;
  username: string;
  body: string;
  repliesCount: number;
  createdAt: Date | string;
  /** The writer's rating of the story, if they gave one. */
  rating: number | null;
  /** Who it mentions, with their author id if they are one. */
  mentions: { userId: number; username: string; authorId: number | null }[];
}

/** What the rules need to know about one comment. */
export interface CommentRef {
  id: number;
  storyId: number;
  partNumber: number;
  episodeId: number | null;
  userId: number;
  parentId: number | null;
}

/** Who a comment mentions, as JSON, from `mentions` (rows with a user_id) of the comment `c`. */
const mentionsJson = (mentions: SQL) => sql`(select coalesce(json_agg(json_build_object(
    'userId', m.user_id, 'username', mu.username, 'authorId', ma.id) order by m.user_id), '[]')
  from ${mentions} join users mu on mu.id = m.user_id
    left join authors ma on ma.user_id = m.user_id)`;
/** A comment `c` as the lists show it, with its writer `u` and their rating `r` (listJoins). */
const rowColumns = (mentions: SQL) => sql`c.id as "commentId", c.story_id as "storyId",
  c.part_number as "partNumber", c.user_id as "userId", u.username, c.body,
  c.replies_count as "repliesCount", c.created_at as "createdAt", r.rating,
  ${mentionsJson(mentions)} as mentions`;
const listJoins = sql`join users u on u.id = c.user_id
  left join ratings r on r.user_id = c.user_id and r.story_id = c.story_id`;
const listColumns = rowColumns(
  sql`(select user_id from comment_mentions where comment_id = c.id) as m`,
);
const listFrom = sql`comments c ${listJoins}`;

/** A comment an editor rejected (moderation) shows to its writer only. */
const shownTo = (viewerId: number) =>
  sql`(c.user_id = ${viewerId} or not exists (
    select 1 from rejected_comments rc where rc.comment_id = c.id))`;

/** Comments of a part read to find who is in its conversation. */
const RECENT_COMMENTS = 1_000;

/** Queries behind comments, replies, mentions and reports. Pass a transaction to run inside it. */
export const commentsRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];
  const toRow = (r: CommentRow): CommentRow => ({
    ...r,
    repliesCount: Number(r.repliesCount),
    rating: r.rating === null || r.rating === undefined ? null : Number(r.rating),
    // A driver may hand json over as text or already parsed.
    mentions: typeof r.mentions === 'string' ? JSON.parse(r.mentions) : (r.mentions ?? []),
  });

  return {
    /** Top-level comments on one part the viewer may see, newest first. */
    topLevel: async (storyId: number, partNumber: number, limit: number, viewerId: number) =>
      (
        await rows<CommentRow>(sql`
          select ${listColumns} from ${listFrom}
          where c.story_id = ${storyId} and c.part_number = ${partNumber} and c.parent_id is null
            and ${shownTo(viewerId)}
          order by c.created_at desc, c.id desc limit ${limit}`)
      ).map(toRow),

    /** Replies to one comment the viewer may see, oldest first. */
    replies: async (parentId: number, limit: number, viewerId: number) =>
      (
        await rows<CommentRow>(sql`
          select ${listColumns} from ${listFrom}
          where c.parent_id = ${parentId} and ${shownTo(viewerId)}
          order by c.created_at asc, c.id asc limit ${limit}`)
      ).map(toRow),

    /** One comment, locked for the rest of the transaction when asked. */
    comment: (id: number, opts: { lock?: boolean } = {}) =>
      one<CommentRef>(sql`
        select id, story_id as "storyId", part_number as "partNumber", episode_id as "episodeId",
          user_id as "userId", parent_id as "parentId"
        from comments where id = ${id} ${opts.lock ? sql`for update` : sql``}`),

    /**
     * Takes a post from the writer's pace (pace.ts) and, when one was taken, stores the comment
     * or reply with its mentions and its comment.posted event (for the dispatcher, events.ts),
     * and answers it as the lists show it: one statement, so it needs no transaction of its
     * own. `wait` is the pace's: null when the post went in, else the seconds until it may.
     */
    insertListed: async (
      pace: PaceParts,
      v: {
        storyId: number;
        episodeId: number | null;
        partNumber: number;
        userId: number;
        parentId: number | null;
        body: string;
        platform: string;
        mentions: readonly number[];
      },
    ): Promise<{ wait: number | null; comment: CommentRow | null }> => {
      const r = await one<
        CommentRow & { took: boolean; ahead: number | string | null; commentId: number | null }
      >(sql`
        with ${pace.ctes},
        c as (
          insert into comments (story_id, episode_id, part_number, user_id, parent_id, body, platform)
          select ${v.storyId}::int, ${v.episodeId}::int, ${v.partNumber}::int, ${v.userId}::int,
            ${v.parentId}::int, ${v.body}::text, ${v.platform}::text
          where ${pace.took}
          returning id, story_id, part_number, user_id, parent_id, body, replies_count, created_at),
        m as (
          insert into comment_mentions (comment_id, user_id)
          select c.id, x.user_id from c, unnest(${`{${v.mentions.join(',')}}`}::int[]) as x(user_id)
          on conflict do nothing
          returning user_id),
        e as (
          -- DomainEvent 'comment.posted': its payload, in the same fields.
          insert into events (type, payload)
          select 'comment.posted', json_build_object('commentId', c.id, 'storyId', c.story_id,
            'partNumber', c.part_number, 'parentId', c.parent_id, 'userId', c.user_id)::text
          from c),
        -- The mentions as inserted (the statement's snapshot does not see them in the table).
        listed as (select ${rowColumns(sql`m`)} from c ${listJoins})
        select ${pace.took} as took, ${pace.ahead} as ahead, listed.*
        from (select 1) as one left join listed on true`);
      const { took, ahead, ...row } = r!;
      return {
        wait: waitOf({ took, ahead }),
        comment: row.commentId === null ? null : toRow(row as CommentRow),
      };
    },

    /** Adds to a comment's replies count; false when the comment is gone. */
    addReplies: async (id: number, delta: number) =>
      (
        await rows(sql`
          update comments set replies_count = greatest(0, replies_count + ${delta})
          where id = ${id} returning id`)
      ).length > 0,

    /** Removes a comment; its replies, mentions and reports go with it (foreign keys cascade). */
    remove: (id: number) => db.execute(sql`delete from comments where id = ${id}`),

    /**
     * The people of a part's conversation: the writers of its latest comments and replies, most
     * recent first, and the story's author. Bounded: only the latest RECENT_COMMENTS are read.
     */
    participants: (
      storyId: number,
      partNumber: number,
      authorUserId: number | null,
      limit: number,
    ) =>
      rows<{ userId: number; username: string }>(sql`
        select u.id as "userId", u.username from (
          select recent.user_id from (
            select c.user_id, c.created_at from comments c
            where c.story_id = ${storyId} and c.part_number = ${partNumber}
            order by c.created_at desc limit ${RECENT_COMMENTS}) recent
          group by recent.user_id order by max(recent.created_at) desc limit ${limit}
        ) p join users u on u.id = p.user_id
        union
        select id, username from users where id = ${authorUserId}`),

    /** Who follows the user, by name, for mention suggestions. */
    followersOf: (userId: number, limit: number) =>
      rows<{ userId: number; username: string }>(sql`
        select u.id as "userId", u.username from follows f join users u on u.id = f.follower_id
        where f.followed_id = ${userId}
        order by u.username, u.id limit ${limit}`),

    /** The user whose name is this word (case and joiners aside; usernames are unique so). */
    userNamed: async (name: string) =>
      (
        await rows<{ userId: number }>(
          sql`select id as "userId" from users where fold_key(username) = fold_key(${name}) limit 1`,
        )
      )[0],

    /** Files a report; a second one by the same reader changes nothing. True when it was new. */
    report: async (commentId: number, userId: number, reason: string) =>
      (
        await rows(sql`
          insert into comment_reports (comment_id, user_id, reason)
          values (${commentId}, ${userId}, ${reason})
          on conflict do nothing returning comment_id`)
      ).length > 0,
  };
};
export type CommentsRepo = ReturnType<typeof commentsRepo>;
