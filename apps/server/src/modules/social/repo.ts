import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export interface FollowingRow {
  userId: number;
  username: string;
  authorId: number | null;
  authorName: string | null;
}

/** Queries behind follows. Pass a transaction to run inside it. */
export const socialRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  return {
    userExists: async (userId: number) =>
      (await rows(sql`select 1 from users where id = ${userId}`)).length > 0,

    /** Stops following; false when the viewer was not following. */
    unfollow: async (followerId: number, followedId: number) =>
      (
        await rows(sql`
          delete from follows where follower_id = ${followerId} and followed_id = ${followedId}
          returning 1`)
      ).length > 0,

    /** Starts following; false when the viewer already was. */
    follow: async (followerId: number, followedId: number) =>
      (
        await rows(sql`
          insert into follows (follower_id, followed_id) values (${followerId}, ${followedId})
          on conflict do nothing returning 1`)
      ).length > 0,

    isFollowing: async (followerId: number, followedId: number) =>
      (
        await rows(sql`
          select 1 from follows where follower_id = ${followerId} and followed_id = ${followedId}`)
      ).length > 0,

    followers: async (userId: number) =>
      Number(
        (
          await rows<{ n: number }>(
            sql`select count(*)::int as n from follows where followed_id = ${userId}`,
          )
        )[0]?.n ?? 0,
      ),

    /** Whom the user follows, newest first, with their author name where they are authors. */
    following: (userId: number) =>
      rows<FollowingRow>(sql`
        select u.id as "userId", u.username, a.id as "authorId", a.name as "authorName"
        from follows f
        join users u on u.id = f.followed_id
        left join authors a on a.user_id = u.id
        where f.follower_id = ${userId}
        order by f.created_at desc, u.id desc`),

    /** The author's user account: undefined for no such author, null for one without an account. */
    authorUser: async (authorId: number) =>
      (
        await rows<{ userId: number | null }>(
          sql`select user_id as "userId" from authors where id = ${authorId}`,
        )
      )[0],
  };
};
