import { sql, type SQL } from 'drizzle-orm';
import type { ReviewAction, ReviewKind } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';

const rowsOf = async <T>(db: Db, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The kept words with the keys they match by (a small table, read whole). */
export const keptWords = (db: Db) =>
  rowsOf<{ word: string; keys: string[] }>(db, sql`select word, keys from review_words`);

/** An open case, as the queue pages them. */
export interface CaseRow {
  caseId: number;
  kind: ReviewKind;
  targetId: number;
  heldReason: string | null;
  hidden: boolean;
  openedAt: Date | string;
}

/** A target as an editor judges it (see targetsSql). */
export interface TargetRow {
  kind: ReviewKind;
  id: number;
  userId: number;
  username: string;
  joinedAt: Date | string;
  text: string;
  status: string;
  hasAvatar: boolean;
  storyId: number | null;
  partNumber: number | null;
  postId: number | null;
}

/**
 * Every reviewable thing in one shape, each kind from its own table: community posts and post
 * comments (not removed by their writers), story comments, and profiles (a user's bio).
 */
const targetsSql = sql`(
  select 'post' as kind, p.id, p.user_id as "userId", p.body as text, p.status,
    false as "hasAvatar", null::int as "storyId", null::int as "partNumber", null::int as "postId"
  from community_posts p where p.status <> 'removed'
  union all
  select 'post_comment', c.id, c.user_id, c.body, c.status, false, null, null, c.post_id
  from community_comments c where c.status <> 'removed'
  union all
  select 'comment', c.id, c.user_id, c.body,
    case when exists (select 1 from rejected_comments r where r.comment_id = c.id)
      then 'rejected' else 'approved' end,
    false, c.story_id, c.part_number, null
  from comments c
  union all
  select 'profile', u.id, u.id, coalesce(cp.bio, ''), 'approved', cp.avatar_version is not null,
    null, null, null
  from users u left join community_profiles cp on cp.user_id = u.id
)`;

/** Queries of the review. Pass a transaction to run inside it. */
export const moderationRepo = (db: Db) => {
  const rows = <T>(query: SQL) => rowsOf<T>(db, query);
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];

  return {
    /** One target; undefined when it is gone. */
    target: (kind: ReviewKind, id: number) =>
      one<TargetRow>(sql`
        select t.kind, t.id, t."userId", u.username, u.created_at as "joinedAt", t.text, t.status,
          t."hasAvatar", t."storyId", t."partNumber", t."postId"
        from ${targetsSql} t join users u on u.id = t."userId"
        where t.kind = ${kind} and t.id = ${id}`),

    /** Targets of a page of cases, by kind and id. */
    targets: (keys: readonly { kind: ReviewKind; targetId: number }[]) =>
      keys.length === 0
        ? Promise.resolve([] as TargetRow[])
        : rows<TargetRow>(sql`
        select t.kind, t.id, t."userId", u.username, u.created_at as "joinedAt", t.text, t.status,
          t."hasAvatar", t."storyId", t."partNumber", t."postId"
        from ${targetsSql} t join users u on u.id = t."userId"
        where (t.kind, t.id) in (${sql.join(
          keys.map((k) => sql`(${k.kind}, ${k.targetId})`),
          sql`, `,
        )})`),

    /**
     * The target's open case, opened now when it has none, locked for the transaction: flags of
     * one case take turns, so the third of three at once counts all three.
     */
    openCase: async (kind: ReviewKind, targetId: number) => {
      // An editor may close the case between the two statements: then a new one opens.
      for (;;) {
        await db.execute(sql`
          insert into review_cases (kind, target_id) values (${kind}, ${targetId})
          on conflict (kind, target_id) where status = 'open' do nothing`);
        const open = await one<{ id: number; hidden: boolean }>(sql`
          select id, hidden from review_cases
          where kind = ${kind} and target_id = ${targetId} and status = 'open' for update`);
        if (open) return open;
      }
    },

    /** Files a flag; false when this person had flagged the target before. */
    addFlag: async (v: {
      kind: ReviewKind;
      targetId: number;
      userId: number;
      caseId: number;
      reason: string;
    }) =>
      (
        await rows(sql`
          insert into review_flags (kind, target_id, user_id, case_id, reason)
          values (${v.kind}, ${v.targetId}, ${v.userId}, ${v.caseId}, ${v.reason})
          on conflict do nothing returning user_id`)
      ).length > 0,

    /** How many different people flagged within the case. */
    flaggers: async (caseId: number) =>
      Number(
        (await one<{ n: number }>(
          sql`select count(*) as n from review_flags where case_id = ${caseId}`,
        ))!.n,
      ),

    /** Marks the case as hiding its target; false when it already did. */
    markHidden: async (caseId: number) =>
      (
        await rows(
          sql`update review_cases set hidden = true where id = ${caseId} and not hidden returning id`,
        )
      ).length > 0,

    /** A step of the case's history. */
    event: (caseId: number, action: ReviewAction, actorId: number | null, note: string | null) =>
      db.execute(sql`
        insert into review_events (case_id, action, actor_id, note)
        values (${caseId}, ${action}, ${actorId}, ${note})`),

    /**
     * A page of open cases, oldest first, whose targets still exist (limit + 1 rows tell
     * whether a next page has any).
     */
    openCases: (offset: number, limit: number) =>
      rows<CaseRow>(sql`
        select c.id as "caseId", c.kind, c.target_id as "targetId", c.held_reason as "heldReason",
          c.hidden, c.opened_at as "openedAt"
        from review_cases c
        where c.status = 'open' and exists (
          select 1 from ${targetsSql} t where t.kind = c.kind and t.id = c.target_id)
        order by c.opened_at, c.id
        offset ${offset} limit ${limit}`),

    /** The flags of these cases, oldest first. */
    flagsOf: (caseIds: readonly number[]) =>
      caseIds.length === 0
        ? Promise.resolve([])
        : rows<{
            caseId: number;
            userId: number;
            username: string;
            reason: string;
            createdAt: Date | string;
          }>(sql`
        select f.case_id as "caseId", f.user_id as "userId", u.username, f.reason,
          f.created_at as "createdAt"
        from review_flags f join users u on u.id = f.user_id
        where f.case_id in (${sql.join(
          caseIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        order by f.created_at, f.user_id`),

    /** Every step of these targets' reviews, earlier cases included, oldest first. */
    historyOf: (keys: readonly { kind: ReviewKind; targetId: number }[]) =>
      keys.length === 0
        ? Promise.resolve([])
        : rows<{
            kind: ReviewKind;
            targetId: number;
            action: ReviewAction;
            actorId: number | null;
            username: string | null;
            note: string | null;
            at: Date | string;
          }>(sql`
        select c.kind, c.target_id as "targetId", e.action, e.actor_id as "actorId", u.username,
          e.note, e.at
        from review_cases c join review_events e on e.case_id = c.id
          left join users u on u.id = e.actor_id
        where (c.kind, c.target_id) in (${sql.join(
          keys.map((k) => sql`(${k.kind}, ${k.targetId})`),
          sql`, `,
        )})
        order by e.at, e.id`),

    /**
     * Closes the target's open case with the decision, if it is still open: of two editors
     * deciding at once, the second's update waits for the first's and then finds no open case.
     */
    closeCase: (v: {
      kind: ReviewKind;
      targetId: number;
      status: 'approved' | 'rejected' | 'ignored';
      by: number;
      reason: string | null;
    }) =>
      one<{ id: number; decidedAt: Date | string }>(sql`
        update review_cases
        set status = ${v.status}, decided_by = ${v.by}, decided_at = now(),
          decision_reason = ${v.reason}
        where kind = ${v.kind} and target_id = ${v.targetId} and status = 'open'
        returning id, decided_at as "decidedAt"`),

    /** The target's latest decision, with who made it. */
    lastDecision: (kind: ReviewKind, targetId: number) =>
      one<{ status: string; username: string | null; decidedAt: Date | string }>(sql`
        select c.status, u.username, c.decided_at as "decidedAt"
        from review_cases c left join users u on u.id = c.decided_by
        where c.kind = ${kind} and c.target_id = ${targetId} and c.status <> 'open'
        order by c.decided_at desc, c.id desc limit 1`),

    /** Applies an approval (or ignored flags) to a post or post comment: it shows again. */
    showCommunity: (table: 'community_posts' | 'community_comments', id: number) =>
      db.execute(sql`
        update ${sql.identifier(table)}
        set hidden_at = null,
          status = case when status = 'pending' then 'approved' else status end,
          status_reason = case when status = 'pending' then null else status_reason end
        where id = ${id} and status <> 'removed'`),

    /** A rejected post or post comment: gone for everyone but its writer, who reads why. */
    rejectCommunity: (table: 'community_posts' | 'community_comments', id: number, why: string) =>
      db.execute(sql`
        update ${sql.identifier(table)}
        set status = 'rejected', status_reason = ${why}, hidden_at = null
        where id = ${id} and status <> 'removed'`),

    /** Sets the status of a story comment's open reports ('kept' | 'removed'). */
    settleReports: (commentId: number, status: 'kept' | 'removed') =>
      db.execute(sql`
        update comment_reports set status = ${status}
        where comment_id = ${commentId} and status = 'open'`),

    rejectStoryComment: (commentId: number, why: string) =>
      db.execute(sql`
        insert into rejected_comments (comment_id, reason) values (${commentId}, ${why})
        on conflict (comment_id) do update set reason = excluded.reason`),

    /** A rejected profile loses its bio and picture. */
    clearProfile: (userId: number) =>
      db.execute(sql`
        update community_profiles set bio = '', avatar_version = null, updated_at = now()
        where user_id = ${userId}`),

    /** Hides a post (or post comment) until an editor decides. */
    hideCommunity: (table: 'community_posts' | 'community_comments', id: number) =>
      db.execute(sql`
        update ${sql.identifier(table)} set hidden_at = now()
        where id = ${id} and hidden_at is null`),

    /* The kept word list. */

    words: () =>
      rows<{
        id: number;
        word: string;
        addedById: number | null;
        addedByName: string | null;
        createdAt: Date | string;
      }>(sql`
        select w.id, w.word, w.added_by as "addedById", u.username as "addedByName",
          w.created_at as "createdAt"
        from review_words w left join users u on u.id = w.added_by
        order by w.word, w.id`),

    wordCount: async () =>
      Number((await one<{ n: number }>(sql`select count(*) as n from review_words`))!.n),

    /** The listed word with this main key, if one is. */
    wordByKey: (key: string) =>
      one<{ id: number; word: string }>(sql`select id, word from review_words where key = ${key}`),

    /** Adds a word; undefined when one with the same key was added meanwhile. */
    addWord: (v: { word: string; key: string; keys: string[]; by: number }) =>
      one<{ id: number; createdAt: Date | string }>(sql`
        insert into review_words (word, key, keys, added_by)
        values (${v.word}, ${v.key}, ${sql`array[${sql.join(
          v.keys.map((k) => sql`${k}`),
          sql`, `,
        )}]::text[]`}, ${v.by})
        on conflict (key) do nothing
        returning id, created_at as "createdAt"`),

    removeWord: (id: number) =>
      one<{ id: number; word: string }>(
        sql`delete from review_words where id = ${id} returning id, word`,
      ),
  };
};
export type ModerationRepo = ReturnType<typeof moderationRepo>;
