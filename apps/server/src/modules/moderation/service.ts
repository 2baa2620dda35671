import {
  REVIEW,
  toStored,
  truncateGraphemes,
  type Decision,
  type DecisionAnswer,
  type FlagAnswer,
  type ReviewItem,
  type ReviewKind,
  type ReviewPage,
  type ReviewWord,
} from '@kathamala/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { recordAudit } from '../community/audit.ts';
import { enqueueNotices } from '../community/notices.ts';
import { checkPace } from './pace.ts';
import { moderationRepo, type TargetRow } from './repo.ts';
import { firstListedWord, wordKey, wordKeys } from './words.ts';

/** The job that tells a writer their post or comment was rejected, and why. */
export const REVIEW_NOTIFY_JOB = 'moderation.notify';
export interface ReviewNotifyJob {
  caseId: number;
  kind: ReviewKind;
  targetId: number;
  writerId: number;
  editorId: number;
  postId: number | null;
  postCommentId: number | null;
  reason: string;
}

/** What a writer reads when no sentence was given with a rejection. */
export const DEFAULT_REJECTION =
  'An editor found that this breaks the community rules, so others no longer see it.';

const NAMES: Record<ReviewKind, string> = {
  post: 'post',
  profile: 'profile',
  comment: 'comment',
  post_comment: 'comment',
};
const PAST = { approve: 'approved', reject: 'rejected', ignore: 'ignored' } as const;
const BLANK = /^[\s\u200B-\u200D\u2060\uFEFF]*$/u;
const iso = (d: Date | string) => new Date(d).toISOString();

/** PostgreSQL text cannot hold U+0000 or a lone surrogate: refuse them instead of failing. */
function storable(text: string, field: string): string {
  if (text.includes('\u0000') || /[\uD800-\uDFFF]/u.test(text))
    throw invalid('The text contains characters that are not allowed.', field);
  return text;
}

/** A reason as stored: NFC, trimmed, not blank, at most REVIEW.reasonChars characters. */
function sentence(raw: string, blank: string): string {
  const text = storable(toStored(raw).trim(), 'reason');
  if (BLANK.test(text)) throw invalid(blank, 'reason');
  const n = Array.from(text).length;
  if (n > REVIEW.reasonChars)
    throw invalid(
      `A reason can be at most ${REVIEW.reasonChars} characters long; this one has ${n.toLocaleString('en')}.`,
      'reason',
    );
  return text;
}

/** Flags, the review queue, decisions and the kept word list (issue 28, "Review"). */
export function moderationService({
  db,
  queue,
  dropFeeds,
}: {
  db: Db;
  queue: JobQueue;
  /** Drops cached feeds and public pages (platform.invalidate): a post shown or hidden. */
  dropFeeds: () => void;
}) {
  const repo = moderationRepo(db);
  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => work(tx as unknown as Db));

  /** Flags a target someone else wrote; the flag joins (or opens) its case in the queue. */
  const flag = async (
    viewer: Viewer,
    kind: 'post' | 'profile',
    targetId: number,
    rawReason: string,
  ): Promise<FlagAnswer> => {
    const reason = sentence(rawReason, `Say why you are flagging this ${NAMES[kind]}.`);
    const answer = await inTransaction(async (tx) => {
      const r = moderationRepo(tx);
      const target = await r.target(kind, targetId);
      // Others see a post only once approved: a held or rejected one is not there to flag.
      if (!target || (kind === 'post' && target.status !== 'approved'))
        throw notFound(`We could not find that ${NAMES[kind]}. It may have been removed.`);
      if (target.userId === viewer.userId)
        throw invalid(`You cannot flag your own ${NAMES[kind]}.`);
      await checkPace(tx, viewer.userId, 'flag');
      const open = await r.openCase(kind, targetId);
      const counted = await r.addFlag({
        kind,
        targetId,
        userId: viewer.userId,
        caseId: open.id,
        reason,
      });
      if (counted) await r.event(open.id, 'flagged', viewer.userId, reason);
      let hidden = open.hidden;
      // Enough different people: a post is hidden until an editor decides.
      if (kind === 'post' && !hidden && (await r.flaggers(open.id)) >= REVIEW.flagsToHide) {
        await r.hideCommunity('community_posts', targetId);
        if (await r.markHidden(open.id))
          await r.event(
            open.id,
            'hidden',
            null,
            `${REVIEW.flagsToHide} people flagged it; hidden until an editor decides.`,
          );
        hidden = true;
      }
      return {
        flagged: true,
        counted,
        hidden,
        hiddenNow: hidden && !open.hidden,
      };
    });
    if (answer.hiddenNow) dropFeeds();
    return { flagged: answer.flagged, counted: answer.counted, hidden: answer.hidden };
  };

  /** What a decision does to its target. */
  const apply = async (tx: Db, target: TargetRow, decision: Decision, why: string) => {
    const r = moderationRepo(tx);
    const table = target.kind === 'post' ? 'community_posts' : 'community_comments';
    switch (target.kind) {
      case 'post':
      case 'post_comment':
        if (decision === 'reject') await r.rejectCommunity(table, target.id, why);
        else {
          await r.showCommunity(table, target.id);
          // Nobody heard of it while it was held: its mentions and its post's writer hear now.
          if (target.status === 'pending')
            await enqueueNotices(
              tx,
              queue,
              target.kind === 'post'
                ? { kind: 'post', postId: target.id, actorId: target.userId }
                : {
                    kind: 'comment',
                    postId: target.postId!,
                    commentId: target.id,
                    actorId: target.userId,
                  },
            );
        }
        return;
      case 'comment':
        if (decision === 'reject') await r.rejectStoryComment(target.id, why);
        await r.settleReports(target.id, decision === 'reject' ? 'removed' : 'kept');
        return;
      case 'profile':
        if (decision === 'reject') await r.clearProfile(target.id);
        return;
    }
  };

  return {
    flagPost: (viewer: Viewer, postId: number, reason: string) =>
      flag(viewer, 'post', postId, reason),
    flagProfile: (viewer: Viewer, userId: number, reason: string) =>
      flag(viewer, 'profile', userId, reason),

    /** Open items, oldest first, with their targets, flags and history. */
    async queue(page: number): Promise<ReviewPage> {
      const size = REVIEW.pageSize;
      const cases = await repo.openCases((page - 1) * size, size + 1);
      const shown = cases.slice(0, size);
      const keys = shown.map((c) => ({ kind: c.kind, targetId: c.targetId }));
      const [targets, flags, history, words] = await Promise.all([
        repo.targets(keys),
        repo.flagsOf(shown.map((c) => c.caseId)),
        repo.historyOf(keys),
        repo.words(),
      ]);
      const kept = words.map((w) => ({ word: w.word, keys: wordKeys(w.word) }));
      const key = (kind: string, id: number) => `${kind}:${id}`;
      const byTarget = new Map(targets.map((t) => [key(t.kind, t.id), t]));
      const list: ReviewItem[] = [];
      for (const c of shown) {
        const t = byTarget.get(key(c.kind, c.targetId));
        if (!t) continue;
        list.push({
          caseId: c.caseId,
          target: {
            kind: t.kind,
            id: t.id,
            author: { userId: t.userId, username: t.username, joinedAt: iso(t.joinedAt) },
            preview: truncateGraphemes(t.text, REVIEW.previewChars, '…'),
            status: t.status,
            hasAvatar: t.hasAvatar,
            storyId: t.storyId,
            partNumber: t.partNumber,
            postId: t.postId,
          },
          heldReason: c.heldReason,
          hidden: c.hidden,
          matchedWords: kept
            .filter((w) => firstListedWord(t.text, [w]) !== null)
            .map((w) => w.word),
          openedAt: iso(c.openedAt),
          flags: flags
            .filter((f) => f.caseId === c.caseId)
            .map((f) => ({
              by: { userId: f.userId, username: f.username },
              reason: f.reason,
              createdAt: iso(f.createdAt),
            })),
          history: history
            .filter((h) => h.kind === c.kind && h.targetId === c.targetId)
            .map((h) => ({
              action: h.action,
              by: h.actorId === null ? null : { userId: h.actorId, username: h.username ?? '' },
              note: h.note,
              at: iso(h.at),
            })),
        });
      }
      return { list, page, hasNext: cases.length > size };
    },

    /**
     * An editor's decision on a target waiting in the queue. Of two editors deciding at once
     * one wins; the other gets 409 naming who decided. The decision, its effect, its history
     * step, its audit row and the writer's notification commit together.
     */
    async decide(
      editor: Viewer,
      kind: ReviewKind,
      targetId: number,
      decision: Decision,
      rawReason: string | undefined,
    ): Promise<DecisionAnswer> {
      const given =
        rawReason === undefined ? null : sentence(rawReason, 'Write the reason, or leave it out.');
      const answer = await inTransaction(async (tx) => {
        const r = moderationRepo(tx);
        const target = await r.target(kind, targetId);
        if (!target)
          throw notFound(`We could not find that ${NAMES[kind]}. It may have been removed.`);
        const closed = await r.closeCase({
          kind,
          targetId,
          status: PAST[decision],
          by: editor.userId,
          reason: given,
        });
        if (!closed) {
          const last = await r.lastDecision(kind, targetId);
          if (!last) throw notFound(`That ${NAMES[kind]} is not waiting for review.`);
          throw conflict(
            `${last.username ?? 'Another editor'} already decided on this ${NAMES[kind]} (${last.status}) at ${iso(last.decidedAt).slice(11, 16)} UTC.`,
          );
        }
        const why = given ?? DEFAULT_REJECTION;
        await apply(tx, target, decision, why);
        await r.event(closed.id, PAST[decision], editor.userId, given);
        await recordAudit(tx, {
          actorId: editor.userId,
          action: 'review.decide',
          targetKind: kind,
          targetId,
          reason: given,
          detail: { decision, caseId: closed.id },
        });
        if (decision === 'reject' && kind !== 'profile' && target.userId !== editor.userId) {
          const job: ReviewNotifyJob = {
            caseId: closed.id,
            kind,
            targetId,
            writerId: target.userId,
            editorId: editor.userId,
            postId: kind === 'post' ? targetId : target.postId,
            postCommentId: kind === 'post_comment' ? targetId : null,
            reason: why,
          };
          await queue.send(REVIEW_NOTIFY_JOB, job, { singletonKey: `review:${closed.id}` }, tx);
        }
        return {
          caseId: closed.id,
          kind,
          id: targetId,
          decision,
          decidedBy: { userId: editor.userId, username: editor.name },
          decidedAt: iso(closed.decidedAt),
        };
      });
      // Decisions are rare: every cached public answer (feeds, profiles, pages) is dropped.
      dropFeeds();
      return answer;
    },

    /** Writes the writer's notification of a rejection; a rerun inserts nothing new. */
    async notify(job: ReviewNotifyJob) {
      await db.execute(sql`
        insert into community_notifications
          (user_id, kind, actor_id, post_id, comment_id, excerpt, dedupe_key)
        values (${job.writerId}, 'review', ${job.editorId}, ${job.postId}, ${job.postCommentId},
          ${job.reason}, ${`review:${job.caseId}`})
        on conflict (user_id, dedupe_key) do nothing`);
    },

    /* The kept word list. */

    async words(): Promise<{ list: ReviewWord[] }> {
      return { list: (await repo.words()).map(toWord) };
    },

    async addWord(editor: Viewer, raw: string): Promise<{ word: ReviewWord }> {
      const word = storable(toStored(raw).trim().replace(/\s+/gu, ' '), 'word');
      const key = wordKey(word);
      if (!key) throw invalid('Write a word with at least one letter.', 'word');
      if (Array.from(word).length > REVIEW.wordChars)
        throw invalid(
          `A word or phrase can be at most ${REVIEW.wordChars} characters long.`,
          'word',
        );
      return inTransaction(async (tx) => {
        const r = moderationRepo(tx);
        if ((await r.wordCount()) >= REVIEW.words)
          throw invalid(
            `The list holds at most ${REVIEW.words.toLocaleString('en')} words.`,
            'word',
          );
        const added = await r.addWord({ word, key, keys: wordKeys(word), by: editor.userId });
        if (!added) {
          const same = await r.wordByKey(key);
          throw conflict(
            same && same.word !== word
              ? `“${word}” is already on the list, written as “${same.word}”.`
              : `“${word}” is already on the list.`,
            'word',
          );
        }
        await recordAudit(tx, {
          actorId: editor.userId,
          action: 'review.word.add',
          targetKind: 'review_word',
          targetId: added.id,
          detail: { word },
        });
        return {
          word: {
            id: added.id,
            word,
            addedBy: { userId: editor.userId, username: editor.name },
            createdAt: iso(added.createdAt),
          },
        };
      });
    },

    async removeWord(editor: Viewer, id: number): Promise<{ removed: boolean }> {
      return inTransaction(async (tx) => {
        const gone = await moderationRepo(tx).removeWord(id);
        if (!gone) throw notFound('That word is not on the list.');
        await recordAudit(tx, {
          actorId: editor.userId,
          action: 'review.word.remove',
          targetKind: 'review_word',
          targetId: id,
          detail: { word: gone.word },
        });
        return { removed: true };
      });
    },
  };
}
export type ModerationService = ReturnType<typeof moderationService>;

const toWord = (w: {
  id: number;
  word: string;
  addedById: number | null;
  addedByName: string | null;
  createdAt: Date | string;
}): ReviewWord => ({
  id: w.id,
  word: w.word,
  addedBy: w.addedById === null ? null : { userId: w.addedById, username: w.addedByName ?? '' },
  createdAt: iso(w.createdAt),
});
