import { sql, type SQL } from 'drizzle-orm';
import type { PostStatus, Role } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';

/** A post's row with what every answer shows beside it (writer, images, mentions). */
export interface PostRow {
  id: number;
  userId: number;
  username: string;
  role: Role;
  avatarVersion: string | null;
  body: string;
  lang: 'si' | 'en';
  status: PostStatus;
  statusReason: string | null;
  hidden: boolean;
  pinned: boolean;
  sharedPostId: number | null;
  sharedStoryId: number | null;
  likes: number;
  comments: number;
  shares: number;
  createdAt: Date | string;
  editedAt: Date | string | null;
  images: { id: number; version: string; width: number; height: number }[];
  mentions: { userId: number; username: string }[];
  /** Whether the viewer asked about likes it. */
  liked: boolean;
}

export interface CommentRow {
  id: number;
  postId: number;
  userId: number;
  username: string;
  role: Role;
  avatarVersion: string | null;
  body: string;
  lang: 'si' | 'en';
  status: PostStatus;
  statusReason: string | null;
  hidden: boolean;
  createdAt: Date | string;
  mentions: { userId: number; username: string }[];
}

/** What others may see of a post: approved and not hidden by flags. */
export const VISIBLE = sql`p.status = 'approved' and p.hidden_at is null`;

const ids = (list: readonly number[]) =>
  sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  );

/** JSON columns come back parsed from node-postgres and as text from some drivers. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

const POST_COLUMNS = sql`
  p.id, p.user_id as "userId", u.username, u.role, pr.avatar_version as "avatarVersion",
  p.body, p.lang, p.status, p.status_reason as "statusReason",
  (p.hidden_at is not null) as hidden, (p.pinned_at is not null) as pinned,
  p.shared_post_id as "sharedPostId", p.shared_story_id as "sharedStoryId",
  p.likes_count as likes, p.comments_count as comments, p.shares_count as shares,
  p.created_at as "createdAt", p.edited_at as "editedAt",
  coalesce((select json_agg(json_build_object('id', i.id, 'version', i.version,
      'width', i.width, 'height', i.height) order by i.position, i.id)
    from community_images i where i.post_id = p.id), '[]') as images,
  coalesce((select json_agg(json_build_object('userId', m.user_id, 'username', mu.username)
      order by m.id)
    from community_mentions m join users mu on mu.id = m.user_id
    where m.post_id = p.id and m.comment_id is null), '[]') as mentions`;

/** A comment with its writer and mentions; the caller adds where, order and limit. */
const COMMENT_SELECT = sql`
  select c.id, c.post_id as "postId", c.user_id as "userId", u.username, u.role,
    pr.avatar_version as "avatarVersion", c.body, c.lang, c.status,
    c.status_reason as "statusReason", (c.hidden_at is not null) as hidden,
    c.created_at as "createdAt",
    coalesce((select json_agg(json_build_object('userId', m.user_id,
        'username', mu.username) order by m.id)
      from community_mentions m join users mu on mu.id = m.user_id
      where m.comment_id = c.id), '[]') as mentions
  from community_comments c
  join users u on u.id = c.user_id
  left join community_profiles pr on pr.user_id = c.user_id`;

const fixComment = (r: CommentRow): CommentRow => ({
  ...r,
  id: Number(r.id),
  userId: Number(r.userId),
  mentions: json<CommentRow['mentions']>(r.mentions),
});

/** Queries of the community area. Pass a transaction to run inside it. */
export const communityRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];
  const fixPost = (r: PostRow): PostRow => ({
    ...r,
    id: Number(r.id),
    userId: Number(r.userId),
    sharedPostId: r.sharedPostId === null ? null : Number(r.sharedPostId),
    sharedStoryId: r.sharedStoryId === null ? null : Number(r.sharedStoryId),
    images: json(r.images),
    mentions: json(r.mentions),
  });

  return {
    rows,
    one,

    /** The caller's own profile. */
    me: (userId: number) =>
      one<{
        userId: number;
        username: string;
        role: Role;
        bio: string | null;
        avatarVersion: string | null;
      }>(sql`
        select u.id as "userId", u.username, u.role, pr.bio, pr.avatar_version as "avatarVersion"
        from users u left join community_profiles pr on pr.user_id = u.id where u.id = ${userId}`),

    /** A public profile with its counts and whether `viewerId` follows them. */
    profile: (userId: number, viewerId: number | null) =>
      one<{
        userId: number;
        username: string;
        role: Role;
        bio: string | null;
        avatarVersion: string | null;
        since: Date | string;
        authorId: number | null;
        posts: number;
        followers: number;
        following: number;
        followed: boolean;
      }>(sql`
        select u.id as "userId", u.username, u.role, pr.bio, pr.avatar_version as "avatarVersion",
          u.created_at as since, a.id as "authorId",
          (select count(*)::int from community_posts p
            where p.user_id = u.id and ${VISIBLE}) as posts,
          (select count(*)::int from follows f where f.followed_id = u.id) as followers,
          (select count(*)::int from follows f where f.follower_id = u.id) as following,
          exists (select 1 from follows f
            where f.follower_id = ${viewerId} and f.followed_id = u.id) as followed
        from users u
        left join community_profiles pr on pr.user_id = u.id
        left join authors a on a.user_id = u.id
        where u.id = ${userId}`),

    setBio: (userId: number, bio: string) =>
      db.execute(sql`
        insert into community_profiles (user_id, bio) values (${userId}, ${bio})
        on conflict (user_id) do update set bio = excluded.bio, updated_at = now()`),

    setAvatar: (userId: number, version: string | null) =>
      db.execute(sql`
        insert into community_profiles (user_id, avatar_version) values (${userId}, ${version})
        on conflict (user_id) do update set avatar_version = excluded.avatar_version,
          updated_at = now()`),

    /** The account's role and author flag, locked for the rest of the transaction. */
    roleForUpdate: (userId: number) =>
      one<{ role: Role; isAuthor: boolean }>(
        sql`select role, is_author as "isAuthor" from users where id = ${userId} for update`,
      ),
    setRole: (userId: number, role: Role) =>
      db.execute(sql`update users set role = ${role} where id = ${userId}`),

    userByEmail: (email: string) =>
      one<{ id: number; role: Role }>(
        sql`select id, role from users where lower(email) = lower(${email})`,
      ),

    userExists: async (userId: number) =>
      (await rows(sql`select 1 from users where id = ${userId}`)).length > 0,

    /**
     * Posts by id with their writers, images and mentions, in no particular order; `liked` says
     * whether `likesOf` likes each (false without one).
     */
    posts: async (
      postIds: readonly number[],
      likesOf: number | null = null,
    ): Promise<PostRow[]> => {
      if (postIds.length === 0) return [];
      const found = await rows<PostRow>(sql`
        select ${POST_COLUMNS},
          ${
            likesOf === null
              ? sql`false`
              : sql`exists (select 1 from community_likes l
                  where l.post_id = p.id and l.user_id = ${likesOf})`
          } as liked
        from community_posts p
        join users u on u.id = p.user_id
        left join community_profiles pr on pr.user_id = p.user_id
        where p.id in (${ids(postIds)})`);
      return found.map(fixPost);
    },

    /** Which of these posts `userId` likes. */
    likedOf: async (userId: number, postIds: readonly number[]) => {
      if (postIds.length === 0) return new Set<number>();
      const found = await rows<{ id: number }>(sql`
        select post_id as id from community_likes
        where user_id = ${userId} and post_id in (${ids(postIds)})`);
      return new Set(found.map((r) => Number(r.id)));
    },

    /**
     * The ids of one page of the public feed, newest first, and one more (hasNext). An index
     * range scan of community_posts_feed_idx: page 50 reads about a thousand index entries.
     */
    feedIds: async (limit: number, offset: number) =>
      (
        await rows<{ id: number }>(sql`
          select p.id from community_posts p where ${VISIBLE}
          order by p.id desc limit ${limit} offset ${offset}`)
      ).map((r) => Number(r.id)),

    pinnedIds: async (limit: number, offset: number) =>
      (
        await rows<{ id: number }>(sql`
          select p.id from community_posts p
          where p.pinned_at is not null and ${VISIBLE}
          order by p.pinned_at desc, p.id desc limit ${limit} offset ${offset}`)
      ).map((r) => Number(r.id)),

    /** A person's posts, newest first: all of them for their writer, else what others see. */
    timelineIds: async (userId: number, own: boolean, limit: number, offset: number) =>
      (
        await rows<{ id: number }>(sql`
          select p.id from community_posts p
          where p.user_id = ${userId}
            and ${own ? sql`p.status <> 'removed'` : VISIBLE}
          order by p.id desc limit ${limit} offset ${offset}`)
      ).map((r) => Number(r.id)),

    insertPost: async (v: {
      userId: number;
      body: string;
      lang: 'si' | 'en';
      status: PostStatus;
      statusReason: string | null;
      sharedPostId?: number | null;
      sharedStoryId?: number | null;
    }) =>
      Number(
        (await one<{ id: number }>(sql`
            insert into community_posts
              (user_id, body, lang, status, status_reason, shared_post_id, shared_story_id)
            values (${v.userId}, ${v.body}, ${v.lang}, ${v.status}, ${v.statusReason},
              ${v.sharedPostId ?? null}, ${v.sharedStoryId ?? null})
            returning id`))!.id,
      ),

    /** The post's writer and state (locked for the rest of the transaction). */
    postForUpdate: (postId: number) =>
      one<{ userId: number; status: PostStatus; pinned: boolean; hidden: boolean }>(sql`
        select user_id as "userId", status, (pinned_at is not null) as pinned,
          (hidden_at is not null) as hidden
        from community_posts where id = ${postId} for update`),

    /** The post's writer and state without a lock. */
    postState: (postId: number) =>
      one<{ userId: number; status: PostStatus; hidden: boolean }>(sql`
        select user_id as "userId", status, (hidden_at is not null) as hidden
        from community_posts where id = ${postId}`),

    editPost: (postId: number, body: string, lang: 'si' | 'en') =>
      db.execute(sql`
        update community_posts set body = ${body}, lang = ${lang}, edited_at = now()
        where id = ${postId}`),

    /** Sends a post back to review with the reason its writer reads. */
    holdPost: (postId: number, reason: string) =>
      db.execute(sql`
        update community_posts set status = 'pending', status_reason = ${reason}, pinned_at = null
        where id = ${postId}`),

    removePost: (postId: number, reason: string | null) =>
      db.execute(sql`
        update community_posts set status = 'removed', status_reason = ${reason},
          pinned_at = null where id = ${postId}`),

    setPinned: (postId: number, pinned: boolean) =>
      db.execute(sql`
        update community_posts set pinned_at = ${pinned ? sql`now()` : sql`null`}
        where id = ${postId}`),

    /** The images a post has now, in order. */
    imagesOf: (postId: number) =>
      rows<{ id: number }>(
        sql`select id from community_images where post_id = ${postId} order by position, id`,
      ),

    /** The writer's draft and post images among these ids, with where each is now. */
    imagesOwned: (userId: number, imageIds: readonly number[]) =>
      imageIds.length === 0
        ? Promise.resolve([])
        : rows<{ id: number; postId: number | null }>(sql`
            select id, post_id as "postId" from community_images
            where user_id = ${userId} and id in (${ids(imageIds)})`),

    /** Attaches images to a post in the given order; any other image of it is dropped. */
    setPostImages: async (postId: number, imageIds: readonly number[]) => {
      await db.execute(sql`
        delete from community_images where post_id = ${postId}
          ${imageIds.length ? sql`and id not in (${ids(imageIds)})` : sql``}`);
      for (const [position, id] of imageIds.entries())
        await db.execute(sql`
          update community_images set post_id = ${postId}, position = ${position}
          where id = ${id}`);
    },

    insertImage: async (v: {
      userId: number;
      postId: number | null;
      position: number;
      version: string;
      width: number;
      height: number;
    }) =>
      Number(
        (await one<{ id: number }>(sql`
            insert into community_images (user_id, post_id, position, version, width, height)
            values (${v.userId}, ${v.postId}, ${v.position}, ${v.version}, ${v.width}, ${v.height})
            returning id`))!.id,
      ),

    /** Images of a post (postId) or the writer's drafts (null), counted. */
    imageCount: async (userId: number, postId: number | null) =>
      Number(
        (
          await one<{ n: number }>(sql`
            select count(*)::int as n from community_images
            where ${postId === null ? sql`user_id = ${userId} and post_id is null` : sql`post_id = ${postId}`}`)
        )?.n ?? 0,
      ),

    deleteImage: async (imageId: number, userId: number, postId: number | null) =>
      (
        await rows(sql`
          delete from community_images where id = ${imageId} and user_id = ${userId}
            and ${postId === null ? sql`post_id is null` : sql`post_id = ${postId}`}
          returning id`)
      ).length > 0,

    /** Likes or stops liking; answers whether anything changed. */
    addLike: async (postId: number, userId: number) =>
      (
        await rows(sql`
          insert into community_likes (post_id, user_id) values (${postId}, ${userId})
          on conflict do nothing returning post_id`)
      ).length > 0,
    removeLike: async (postId: number, userId: number) =>
      (
        await rows(sql`
          delete from community_likes where post_id = ${postId} and user_id = ${userId}
          returning post_id`)
      ).length > 0,
    /** Moves a count by `by` and answers the new value. */
    bump: async (postId: number, column: 'likes' | 'comments' | 'shares', by: number) =>
      Number(
        (
          await one<{ n: number }>(sql`
            update community_posts set ${sql.raw(`${column}_count = ${column}_count`)} + ${by}
            where id = ${postId} returning ${sql.raw(`${column}_count`)} as n`)
        )?.n ?? 0,
      ),
    likes: async (postId: number) =>
      Number(
        (
          await one<{ n: number }>(
            sql`select likes_count as n from community_posts where id = ${postId}`,
          )
        )?.n ?? 0,
      ),

    insertComment: async (v: {
      postId: number;
      userId: number;
      body: string;
      lang: 'si' | 'en';
      status: PostStatus;
      statusReason: string | null;
    }) =>
      Number(
        (await one<{ id: number }>(sql`
            insert into community_comments (post_id, user_id, body, lang, status, status_reason)
            values (${v.postId}, ${v.userId}, ${v.body}, ${v.lang}, ${v.status}, ${v.statusReason})
            returning id`))!.id,
      ),

    /** A page of a post's comments, oldest first: what others see, and the viewer's own. */
    comments: async (postId: number, viewerId: number | null, limit: number, offset: number) =>
      (
        await rows<CommentRow>(sql`
          ${COMMENT_SELECT}
          where c.post_id = ${postId}
            and ((c.status = 'approved' and c.hidden_at is null) or c.user_id = ${viewerId})
            and c.status <> 'removed'
          order by c.id limit ${limit} offset ${offset}`)
      ).map(fixComment),

    comment: async (commentId: number) => {
      const r = await one<CommentRow>(sql`${COMMENT_SELECT} where c.id = ${commentId}`);
      return r && fixComment(r);
    },

    /** Who follows the user, by name: mention candidates and suggestions. */
    followersOf: (userId: number, limit: number) =>
      rows<{ userId: number; username: string }>(sql`
        select u.id as "userId", u.username from follows f join users u on u.id = f.follower_id
        where f.followed_id = ${userId}
        order by u.username, u.id limit ${limit}`),

    /** The post's writer and the people who commented on it: mention candidates. */
    threadPeople: (postId: number, limit: number) =>
      rows<{ userId: number; username: string }>(sql`
        select u.id as "userId", u.username from users u
        where u.id in (
          select user_id from community_posts where id = ${postId}
          union
          select user_id from (select user_id from community_comments where post_id = ${postId}
            order by id desc limit ${limit}) c)`),

    /** The user whose name is this word (case and joiners aside). */
    userNamed: async (name: string) =>
      (
        await rows<{ userId: number }>(
          sql`select id as "userId" from users where fold_key(username) = fold_key(${name}) limit 1`,
        )
      )[0],

    insertMentions: async (
      postId: number,
      commentId: number | null,
      userIds: readonly number[],
    ) => {
      for (const userId of userIds)
        await db.execute(sql`
          insert into community_mentions (user_id, post_id, comment_id)
          values (${userId}, ${postId}, ${commentId}) on conflict do nothing`);
    },

    /** Drops a post's own mentions (before an edit stores the new ones). */
    clearPostMentions: (postId: number) =>
      db.execute(
        sql`delete from community_mentions where post_id = ${postId} and comment_id is null`,
      ),

    /** A story as a share shows it, when readers may see it. */
    story: (storyId: number) =>
      one<{ storyId: number; title: string; language: 'sinhala' | 'english' }>(sql`
        select s.id as "storyId", s.title, s.language from stories s
        where s.id = ${storyId} and (s.release_at is null or s.release_at <= now())
          and s.number_of_parts > 0`),
    stories: async (storyIds: readonly number[]) =>
      storyIds.length === 0
        ? []
        : rows<{ storyId: number; title: string; language: 'sinhala' | 'english' }>(sql`
            select s.id as "storyId", s.title, s.language from stories s
            where s.id in (${ids(storyIds)})
              and (s.release_at is null or s.release_at <= now())`),
  };
};
export type CommunityRepo = ReturnType<typeof communityRepo>;
