import type { JobQueue } from '../../jobs/queue.ts';
import {
  NOTIFY_COMMENT_JOB,
  NOTIFY_EPISODE_JOB,
  PUSH_SEND_JOB,
  type CommentJob,
  type EpisodeJob,
  type NotificationsService,
  type PushJob,
} from './service.ts';

/** Comment notifications fetched at once: each is a few statements, done well within expiry. */
const COMMENT_JOBS_AT_ONCE = 20;

/**
 * Workers of the notifications module: notifications are made here from events, never inside
 * the request. Each handler may run twice (a crash, a retry): the dedupe keys make a rerun
 * insert nothing and start no second push.
 */
export async function notificationJobs(queue: JobQueue, notifications: NotificationsService) {
  await queue.work<EpisodeJob>(NOTIFY_EPISODE_JOB, async (job) => {
    await notifications.notifyEpisode(job.data);
  });
  // One a comment: fetched and recorded done in batches, not two statements each.
  await queue.work<CommentJob>(
    NOTIFY_COMMENT_JOB,
    async (job) => {
      await notifications.notifyComment(job.data);
    },
    { batchSize: COMMENT_JOBS_AT_ONCE },
  );
  await queue.work<PushJob>(PUSH_SEND_JOB, async (job) => {
    await notifications.sendPush(job.data);
  });
}
