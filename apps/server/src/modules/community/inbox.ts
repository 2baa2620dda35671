import { sql } from 'drizzle-orm';
import {
  COMMUNITY,
  coverSrcSet,
  coverUrl,
  type AuditEntry,
  type CommunityNotification,
  type FeedItem,
  type Role,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import type { CommunityImages } from './images.ts';
import { communityRepo, VISIBLE } from './repo.ts';
import { excerptOf } from './notices.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** What a reader reads about themselves: notifications, mentions, their own feed; and the audit log. */
export function communityInbox(deps: {
  db: Db;
  images: CommunityImages;
  imagesHost: string;
  /** Posts by id as answers show them to this viewer (community service's hydrate). */
  posts: (ids: number[], viewer: Viewer) => Promise<import('@kathamala/domain').Post[]>;
}) {
  const { db, images } = deps;
  const repo = communityRepo(db);
  const size = COMMUNITY.pageSize;

  return {
    /**
     * A page of the viewer's community notifications, newest first, with how many were unread;
     * reading the first page marks them read (as the drawer's list does).
     */
    async notifications(viewer: Viewer, page: number) {
      const unread = Number(
        (
          await repo.one<{ n: number }>(sql`
            select count(*)::int as n from community_notifications
            where user_id = ${viewer.userId} and read_at is null`)
        )?.n ?? 0,
      );
      const found = await repo.rows<{
        id: number;
        kind: CommunityNotification['kind'];
        actorId: number;
        username: string;
        avatarVersion: string | null;
        postId: number | null;
        commentId: number | null;
        excerpt: string;
        createdAt: Date | string;
        read: boolean;
      }>(sql`
        select n.id, n.kind, n.actor_id as "actorId", u.username, pr.avatar_version as "avatarVersion",
          n.post_id as "postId", n.comment_id as "commentId", n.excerpt, n.created_at as "createdAt",
          n.read_at is not null as read
        from community_notifications n
        join users u on u.id = n.actor_id
        left join community_profiles pr on pr.user_id = n.actor_id
        where n.user_id = ${viewer.userId}
        order by n.id desc limit ${size + 1} offset ${(page - 1) * size}`);
      // Up to the newest one listed: a notification arriving meanwhile stays unread (and on
      // the menu badge, which counts these too) until the drawer shows it.
      if (page === 1 && unread > 0 && found[0])
        await db.execute(sql`
          update community_notifications set read_at = now()
          where user_id = ${viewer.userId} and read_at is null and id <= ${Number(found[0].id)}`);
      return {
        list: found.slice(0, size).map((n): CommunityNotification => ({
          id: Number(n.id),
          kind: n.kind,
          actor: {
            userId: Number(n.actorId),
            username: n.username,
            avatar: images.avatar(n.avatarVersion),
          },
          postId: n.postId === null ? null : Number(n.postId),
          commentId: n.commentId === null ? null : Number(n.commentId),
          excerpt: n.excerpt,
          createdAt: iso(n.createdAt),
          read: Boolean(n.read),
        })),
        page,
        hasNext: found.length > size,
        unread,
      };
    },

    /** Where the viewer was mentioned (in posts and comments others can see), newest first. */
    async mentions(viewer: Viewer, page: number) {
      const found = await repo.rows<{
        postId: number;
        commentId: number | null;
        userId: number;
        username: string;
        role: Role;
        avatarVersion: string | null;
        body: string;
        createdAt: Date | string;
      }>(sql`
        select m.post_id as "postId", m.comment_id as "commentId", w.id as "userId", w.username,
          w.role, pr.avatar_version as "avatarVersion",
          coalesce(c.body, p.body) as body, m.created_at as "createdAt"
        from community_mentions m
        join community_posts p on p.id = m.post_id
        left join community_comments c on c.id = m.comment_id
        join users w on w.id = coalesce(c.user_id, p.user_id)
        left join community_profiles pr on pr.user_id = w.id
        where m.user_id = ${viewer.userId} and ${VISIBLE}
          and (c.id is null or (c.status = 'approved' and c.hidden_at is null))
        order by m.id desc limit ${size + 1} offset ${(page - 1) * size}`);
      return {
        list: found.slice(0, size).map((m) => ({
          postId: Number(m.postId),
          commentId: m.commentId === null ? null : Number(m.commentId),
          author: {
            userId: Number(m.userId),
            username: m.username,
            avatar: images.avatar(m.avatarVersion),
            role: m.role,
          },
          excerpt: excerptOf(m.body),
          createdAt: iso(m.createdAt),
        })),
        page,
        hasNext: found.length > size,
      };
    },

    /** A page of the audit log, newest first (admins). */
    async audit(page: number) {
      const found = await repo.rows<{
        id: number;
        actorId: number | null;
        username: string | null;
        action: string;
        targetKind: string;
        targetId: number;
        reason: string | null;
        detail: unknown;
        createdAt: Date | string;
      }>(sql`
        select a.id, a.actor_id as "actorId", u.username, a.action, a.target_kind as "targetKind",
          a.target_id as "targetId", a.reason, a.detail, a.created_at as "createdAt"
        from community_audit a left join users u on u.id = a.actor_id
        order by a.id desc limit ${size + 1} offset ${(page - 1) * size}`);
      return {
        list: found.slice(0, size).map((a): AuditEntry => ({
          id: Number(a.id),
          actor:
            a.actorId === null ? null : { userId: Number(a.actorId), username: a.username ?? '' },
          action: a.action,
          targetKind: a.targetKind,
          targetId: Number(a.targetId),
          reason: a.reason,
          detail: typeof a.detail === 'string' ? JSON.parse(a.detail) : (a.detail ?? null),
          createdAt: iso(a.createdAt),
        })),
        page,
        hasNext: found.length > size,
      };
    },

    /**
     * The reader's own feed, newest first: posts of the people they follow, and episodes
     * published of the authors they follow and the stories they bookmarked. Each arm reads only
     * as far as the page needs (its own newest `page * size + 1`), then the two are merged.
     */
    async personalFeed(viewer: Viewer, page: number) {
      const reach = page * size + 1;
      // The two arms at once: on PostgreSQL each takes its own connection.
      const postsQuery = repo.rows<{ id: number; at: Date | string }>(sql`
        select p.id, p.created_at as at
        from follows f
        cross join lateral (
          select p.id, p.created_at from community_posts p
          where p.user_id = f.followed_id and ${VISIBLE}
          order by p.id desc limit ${reach}) p
        where f.follower_id = ${viewer.userId}
        order by p.id desc limit ${reach}`);
      const episodesQuery = repo.rows<{
        storyId: number;
        title: string;
        language: 'sinhala' | 'english';
        authorName: string;
        partNumber: number;
        episodeTitle: string;
        reason: 'author' | 'bookmark';
        at: Date | string;
      }>(sql`
        with mine as (
          select s.id, 'author' as reason from follows f
            join authors a on a.user_id = f.followed_id
            join stories s on s.author_id = a.id
            where f.follower_id = ${viewer.userId}
          union
          select b.story_id, 'bookmark' from bookmarks b where b.user_id = ${viewer.userId}
        ), stories_of as (
          select id, min(reason) as reason from mine group by id
        )
        select s.id as "storyId", s.title, s.language, a.name as "authorName",
          e.part_number as "partNumber", e.title as "episodeTitle", so.reason,
          e.published_at as at
        from stories_of so
        join stories s on s.id = so.id
        join authors a on a.id = s.author_id
        cross join lateral (
          select e.part_number, e.title, e.published_at from episodes e
          where e.story_id = s.id and e.status = 'published' and e.published_at is not null
          order by e.published_at desc limit ${reach}) e
        where s.number_of_parts > 0 and (s.release_at is null or s.release_at <= now())
        order by e.published_at desc limit ${reach}`);
      const [posts, episodes] = await Promise.all([postsQuery, episodesQuery]);
      type Entry = { at: number; post?: number; episode?: (typeof episodes)[number] };
      const merged: Entry[] = [
        ...posts.map((p): Entry => ({ at: new Date(p.at).getTime(), post: Number(p.id) })),
        ...episodes.map((e): Entry => ({ at: new Date(e.at).getTime(), episode: e })),
      ].sort((a, b) => b.at - a.at || (b.post ?? 0) - (a.post ?? 0));
      const pageItems = merged.slice((page - 1) * size, page * size);
      const hydrated = await deps.posts(
        pageItems.flatMap((i) => (i.post ? [i.post] : [])),
        viewer,
      );
      const byId = new Map(hydrated.map((p) => [p.postId, p]));
      const list: FeedItem[] = [];
      for (const item of pageItems) {
        if (item.post) {
          const post = byId.get(item.post);
          if (post) list.push({ kind: 'post', post });
        } else if (item.episode) {
          const e = item.episode;
          const storyId = Number(e.storyId);
          list.push({
            kind: 'episode',
            episode: {
              storyId,
              title: e.title,
              cover: coverUrl(deps.imagesHost, storyId),
              coverSrcset: coverSrcSet(deps.imagesHost, storyId),
              lang: e.language,
              authorName: e.authorName,
              partNumber: Number(e.partNumber),
              episodeTitle: e.episodeTitle,
              reason: e.reason,
              publishedAt: iso(e.at),
            },
          });
        }
      }
      return { list, page, hasNext: merged.length > page * size };
    },
  };
}
export type CommunityInbox = ReturnType<typeof communityInbox>;
