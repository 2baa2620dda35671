import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { PushTarget } from './push.ts';

/** What the episode job needs to know about a story and the episode that went out. */
export interface EpisodeContext {
  title: string;
  authorName: string;
  /** The author's user account, or null (an author without one): never notified. */
  authorUserId: number | null;
  /** The story's release date when it is still ahead, else null. */
  releaseAhead: Date | null;
  episodeTitle: string | null;
  /** 'published' unless the episode was withdrawn or deleted since. */
  episodeStatus: string | null;
}

/** What the comment job needs: the comment, its writer and its story. */
export interface CommentContext {
  body: string;
  writerId: number;
  writerName: string;
  storyId: number;
  partNumber: number;
  parentId: number | null;
  storyTitle: string;
}

/** One notification ready to insert for many users at once. */
export interface NotificationContent {
  type: 'story' | 'comment';
  title: string;
  description: string;
  storyId: number;
  episode: number;
  /** What caused it: with the user it is unique, so a rerun inserts nothing new. */
  dedupeKey: string;
}

export interface NotificationRow {
  id: number;
  type: 'story' | 'comment';
  storyId: number;
  episode: number;
  title: string;
  description: string;
  createdAt: Date | string;
  read: boolean;
  unread: number;
}

export interface SubscriptionRow extends PushTarget {
  id: number;
  userId: number;
}

const asDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/** Queries behind notifications and push subscriptions. Pass a transaction to run inside it. */
export const notificationsRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];

  /**
   * Inserts `content` for every user `recipients` selects (a `user_id` column), except
   * `exceptUserId`, in one statement; rows already there (a rerun) are skipped. Answers the
   * users actually given a new notification who have a browser subscribed to push.
   */
  const fanOut = async (
    content: NotificationContent,
    recipients: SQL,
    exceptUserId: number | null,
  ): Promise<number[]> => {
    const found = await rows<{ userId: number }>(sql`
      with inserted as (
        insert into notifications (user_id, type, title, description, story_id, episode, dedupe_key)
        select distinct r.user_id, ${content.type}::text, ${content.title}::text,
          ${content.description}::text, ${content.storyId}::int, ${content.episode}::int,
          ${content.dedupeKey}::text
        from (${recipients}) r
        where r.user_id is not null and r.user_id is distinct from ${exceptUserId}::int
        on conflict (user_id, dedupe_key) do nothing
        returning user_id
      )
      select distinct i.user_id as "userId"
      from inserted i join push_subscriptions p on p.user_id = i.user_id
      order by 1`);
    return found.map((r) => Number(r.userId));
  };

  return {
    episodeContext: async (storyId: number, episodeId: number) => {
      const r = await one<{
        title: string;
        authorName: string;
        authorUserId: number | null;
        releaseAhead: Date | string | null;
        episodeTitle: string | null;
        episodeStatus: string | null;
      }>(sql`
        select s.title, a.name as "authorName", a.user_id as "authorUserId",
          case when s.release_at > now() then s.release_at end as "releaseAhead",
          e.title as "episodeTitle", e.status as "episodeStatus"
        from stories s
        join authors a on a.id = s.author_id
        left join episodes e on e.id = ${episodeId} and e.story_id = s.id
        where s.id = ${storyId}`);
      return r && ({ ...r, releaseAhead: asDate(r.releaseAhead) } satisfies EpisodeContext);
    },

    /** The story's readers: who bookmarked it and who follows its author. */
    notifyStoryReaders: (content: NotificationContent, authorUserId: number | null) =>
      fanOut(
        content,
        sql`select b.user_id from bookmarks b where b.story_id = ${content.storyId}
          union
          select f.follower_id from follows f where f.followed_id = ${authorUserId}::int`,
        authorUserId,
      ),

    commentContext: (commentId: number) =>
      one<CommentContext>(sql`
        select c.body, c.user_id as "writerId", u.username as "writerName", c.story_id as "storyId",
          c.part_number as "partNumber", c.parent_id as "parentId", s.title as "storyTitle"
        from comments c
        join users u on u.id = c.user_id
        join stories s on s.id = c.story_id
        where c.id = ${commentId}`),

    /**
     * NEW COMMENT for the parent comment's writer (a reply) or the story's author (a comment),
     * and for everyone it mentions: one per user, the reply or comment reason before a mention.
     */
    notifyCommentReaders: async (
      commentId: number,
      content: Omit<NotificationContent, 'description'>,
      descriptions: { reply: string; onStory: string; mention: string },
      writerId: number,
    ) => {
      // The description depends on why each user hears of it, so the reasons are ranked here
      // rather than passed to fanOut: rank 1 (a reply to you, a comment on your story) wins.
      const found = await rows<{ userId: number }>(sql`
        with c as (select id, parent_id, story_id from comments where id = ${commentId}),
        targets as (
          select p.user_id, 1 as rank, ${descriptions.reply}::text as description
            from c join comments p on p.id = c.parent_id
          union all
          select a.user_id, 1, ${descriptions.onStory}::text
            from c join stories s on s.id = c.story_id join authors a on a.id = s.author_id
            where c.parent_id is null
          union all
          select m.user_id, 2, ${descriptions.mention}::text
            from c join comment_mentions m on m.comment_id = c.id
        ),
        chosen as (
          select distinct on (t.user_id) t.user_id, t.description
          from targets t
          where t.user_id is not null and t.user_id <> ${writerId}
          order by t.user_id, t.rank
        )
        insert into notifications (user_id, type, title, description, story_id, episode, dedupe_key)
        select ch.user_id, ${content.type}::text, ${content.title}::text, ch.description,
          ${content.storyId}::int, ${content.episode}::int, ${content.dedupeKey}::text
        from chosen ch
        on conflict (user_id, dedupe_key) do nothing
        returning user_id as "userId"`);
      return found.map((r) => Number(r.userId));
    },

    /**
     * The user's newest notifications with their read state as it was, and how many were
     * unread; marks them all read. One statement: a notification arriving meanwhile is neither
     * listed nor marked, so it stays unread for next time.
     */
    listAndMarkRead: (userId: number, limit: number) =>
      rows<NotificationRow>(sql`
        with unread as (
          select count(*)::int as n from notifications where user_id = ${userId} and read_at is null
        ),
        marked as (
          update notifications set read_at = now()
          where user_id = ${userId} and read_at is null
          returning id
        ),
        listed as (
          select id, type, story_id as "storyId", episode, title, description,
            created_at as "createdAt", read_at is not null as read
          from notifications where user_id = ${userId}
          order by created_at desc, id desc
          limit ${limit}
        )
        -- marked runs whether or not it is read (PostgreSQL runs every data-modifying WITH once).
        select l.*, (select n from unread) as unread
        from listed l
        order by l."createdAt" desc, l.id desc`),

    /**
     * The menu badge: the user's unread notifications of stories and of the community
     * (community_notifications, read in the same drawer), in one statement: it is polled.
     */
    unread: async (userId: number) =>
      Number(
        (
          await one<{ n: number }>(sql`
            select (
              (select count(*) from notifications where user_id = ${userId} and read_at is null)
              + (select count(*) from community_notifications
                  where user_id = ${userId} and read_at is null)
            )::int as n`)
        )?.n ?? 0,
      ),

    /** Stores a browser's subscription for the user; an endpoint another user had moves over. */
    subscribe: (userId: number, target: PushTarget) =>
      db.execute(sql`
        insert into push_subscriptions (user_id, endpoint, p256dh, auth)
        values (${userId}, ${target.endpoint}, ${target.p256dh}, ${target.auth})
        on conflict (endpoint) do update
          set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
            created_at = now()`),

    /** Keeps the user's newest `keep` subscriptions: one account cannot fan pushes out without end. */
    trimSubscriptions: (userId: number, keep: number) =>
      db.execute(sql`
        delete from push_subscriptions
        where user_id = ${userId} and id not in (
          select id from push_subscriptions where user_id = ${userId}
          order by created_at desc, id desc limit ${keep})`),

    unsubscribe: async (userId: number, endpoint: string) =>
      (
        await rows(sql`
          delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint}
          returning id`)
      ).length > 0,

    subscriptionsOf: (userIds: number[]) =>
      userIds.length === 0
        ? Promise.resolve([] as SubscriptionRow[])
        : rows<SubscriptionRow>(sql`
            select id, user_id as "userId", endpoint, p256dh, auth from push_subscriptions
            where user_id in (${sql.join(
              userIds.map((id) => sql`${id}`),
              sql`, `,
            )})
            order by id`),

    deleteSubscription: (id: number) =>
      db.execute(sql`delete from push_subscriptions where id = ${id}`),
  };
};
export type NotificationsRepo = ReturnType<typeof notificationsRepo>;
