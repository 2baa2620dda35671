import {
  ENGAGEMENT,
  formatCreatedDate,
  NotificationTitle,
  truncateGraphemes,
  type Notification,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { invalid } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { isKnownPushService, type PushMessage, type PushSender, type PushTarget } from './push.ts';
import { notificationsRepo } from './repo.ts';

/** Jobs started by events (EVENT_SUBSCRIBERS in jobs/events.ts) and the push job they start. */
export const NOTIFY_EPISODE_JOB = 'notify.episode';
export const NOTIFY_COMMENT_JOB = 'notify.comment';
export const PUSH_SEND_JOB = 'push.send';

/** The 'episode.published' payload with its event id, as recordEvent sends it. */
export interface EpisodeJob {
  eventId: number;
  storyId: number;
  episodeId: number;
  partNumber: number;
  firstEpisode: boolean;
}

/** The 'comment.posted' payload with its event id. */
export interface CommentJob {
  eventId: number;
  commentId: number;
  storyId: number;
  partNumber: number;
  parentId: number | null;
  userId: number;
}

/** One push message for a batch of users (each of their subscribed browsers gets it). */
export interface PushJob {
  userIds: number[];
  storyId: number;
  message: PushMessage;
}

/** Users per push job: a job sends to their browsers well within the queue's 5-minute expiry. */
const PUSH_BATCH = 100;
/** Browsers sent to at once by one push job. */
const PUSH_PARALLEL = 8;
/** Browsers kept per account: pushes go to the newest this many. */
const SUBSCRIPTIONS_PER_USER = 10;
/**
 * A story released later is looked at again at most this far ahead: a release date moved
 * earlier is still noticed within the hour.
 */
const DEFER_MAX_MS = 3600_000;
const DESCRIPTION_CHARS = 200;
const QUOTE_CHARS = 100;

/** Plain text on one line, cut at a grapheme boundary: never markup, never half a letter. */
const oneLine = (text: string, max: number) =>
  truncateGraphemes(text.replace(/\s+/g, ' ').trim(), max, '…');

const chunks = <T>(items: T[], size: number) => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Runs `work` over `items`, at most `parallel` at a time. */
async function eachLimited<T>(items: T[], parallel: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(parallel, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** The bytes a base64url text stands for, or null when it is not base64url. */
const decoded = (text: string) =>
  /^[A-Za-z0-9_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64url') : null;

export interface NotificationsDeps {
  db: Db;
  queue: JobQueue;
  push: PushSender;
  /** False in production: browsers' push services are https, anything else is refused. */
  allowHttpPush: boolean;
}

/** Notifications made by jobs from events, the reader's list, and Web Push. */
export function notificationsService(deps: NotificationsDeps) {
  const { db, queue, push } = deps;
  const repo = notificationsRepo(db);

  return {
    /**
     * NEW STORY (first episode) or NEW EPISODE for the story's readers: who bookmarked it and
     * who follows its author, never the author. Exactly once per reader (dedupe key); a story
     * not yet released is looked at again at its release. Answers what it did, for tests.
     */
    async notifyEpisode(job: EpisodeJob): Promise<{ notified: number[] } | { deferTo: Date }> {
      const story = await repo.episodeContext(job.storyId, job.episodeId);
      // Deleted since, or withdrawn before release: nothing readers could open.
      if (!story || story.episodeStatus !== 'published') return { notified: [] };
      if (story.releaseAhead) {
        const deferTo = new Date(Math.min(story.releaseAhead.getTime(), Date.now() + DEFER_MAX_MS));
        await queue.send(NOTIFY_EPISODE_JOB, job, {
          startAfter: deferTo,
          singletonKey: `${NOTIFY_EPISODE_JOB}:${job.eventId}`,
        });
        return { deferTo };
      }
      const first = job.firstEpisode;
      const title = first ? NotificationTitle.newStory : NotificationTitle.newEpisode;
      const description = oneLine(
        first
          ? `${story.title} by ${story.authorName}`
          : `${story.title}, episode ${job.partNumber}: ${story.episodeTitle ?? ''}`,
        DESCRIPTION_CHARS,
      );
      const notified = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const pushUsers = await notificationsRepo(tx).notifyStoryReaders(
          {
            type: 'story',
            title,
            description,
            storyId: job.storyId,
            episode: job.partNumber,
            dedupeKey: `ev:${job.eventId}:story`,
          },
          story.authorUserId,
        );
        // Only users given a notification just now: a rerun inserts none and pushes none.
        const message = {
          title,
          body: description,
          url: `/details/${job.storyId}/${job.partNumber}/`,
        };
        for (const userIds of chunks(pushUsers, PUSH_BATCH))
          await queue.send(
            PUSH_SEND_JOB,
            { userIds, storyId: job.storyId, message } satisfies PushJob,
            { retryLimit: 2 },
            tx,
          );
        return pushUsers;
      });
      return { notified };
    },

    /**
     * NEW COMMENT for the parent comment's writer (a reply) or the story's author (a comment),
     * and for each mentioned user; at most one per user per comment, never the writer.
     */
    async notifyComment(job: CommentJob): Promise<{ notified: number[] }> {
      const c = await repo.commentContext(job.commentId);
      // Removed before the job ran: nothing to point at.
      if (!c) return { notified: [] };
      const quote = oneLine(c.body, QUOTE_CHARS);
      const writer = oneLine(c.writerName, 40);
      const cut = (text: string) => oneLine(text, DESCRIPTION_CHARS);
      const notified = await repo.notifyCommentReaders(
        job.commentId,
        {
          type: 'comment',
          title: NotificationTitle.newComment,
          storyId: c.storyId,
          episode: c.partNumber,
          dedupeKey: `ev:${job.eventId}:comment`,
        },
        {
          reply: cut(`${writer} replied: ${quote}`),
          onStory: cut(`${writer} commented on ${c.storyTitle}: ${quote}`),
          mention: cut(`${writer} mentioned you: ${quote}`),
        },
        c.writerId,
      );
      return { notified };
    },

    /** Sends one push to each browser of the job's users; forgets those the service says are gone. */
    async sendPush(job: PushJob): Promise<{ sent: number; gone: number; failed: number }> {
      const targets = await repo.subscriptionsOf(job.userIds);
      const tally = { sent: 0, gone: 0, failed: 0 };
      await eachLimited(targets, PUSH_PARALLEL, async (target) => {
        const outcome = await push.send(target, job.message, { topic: `story-${job.storyId}` });
        tally[outcome] += 1;
        if (outcome === 'gone') await repo.deleteSubscription(target.id);
      });
      return tally;
    },

    /** The viewer's newest notifications and how many were unread; marks them read. */
    async list(viewer: Viewer): Promise<{ notifications: Notification[]; unread: number }> {
      const found = await repo.listAndMarkRead(viewer.userId, ENGAGEMENT.notificationsListed);
      return {
        notifications: found.map((n) => ({
          id: Number(n.id),
          type: n.type,
          storyId: Number(n.storyId),
          episode: Number(n.episode),
          title: n.title,
          description: n.description,
          createdDate: formatCreatedDate(n.createdAt),
          read: Boolean(n.read),
        })),
        unread: Number(found[0]?.unread ?? 0),
      };
    },

    /** The unread count for the menu badge, the community's included; marks nothing. */
    async unread(viewer: Viewer) {
      return { unread: await repo.unread(viewer.userId) };
    },

    pushKey: () => ({ publicKey: push.publicKey }),

    /** Keeps a browser's push subscription for the viewer (an endpoint moves to whoever sent it last). */
    async subscribe(
      viewer: Viewer,
      body: { endpoint: string; keys: Omit<PushTarget, 'endpoint'> },
    ) {
      if (!deps.allowHttpPush && !isKnownPushService(body.endpoint))
        throw invalid("'endpoint' must be an https address of a browser's push service.");
      const p256dh = decoded(body.keys.p256dh);
      if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 4)
        throw invalid(
          "'keys.p256dh' must be the browser's P-256 public key (65 bytes, base64url).",
        );
      const auth = decoded(body.keys.auth);
      if (!auth || auth.length !== 16)
        throw invalid("'keys.auth' must be the browser's 16-byte secret (base64url).");
      await db.transaction(async (t) => {
        const r = notificationsRepo(t as unknown as Db);
        await r.subscribe(viewer.userId, { endpoint: body.endpoint, ...body.keys });
        await r.trimSubscriptions(viewer.userId, SUBSCRIPTIONS_PER_USER);
      });
      return { subscribed: true };
    },

    /** Forgets the viewer's subscription for this endpoint (another user's is left alone). */
    async unsubscribe(viewer: Viewer, endpoint: string) {
      await repo.unsubscribe(viewer.userId, endpoint);
      return { subscribed: false };
    },
  };
}
export type NotificationsService = ReturnType<typeof notificationsService>;
