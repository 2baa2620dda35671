import type { JobQueue } from '../../jobs/queue.ts';
import {
  MAIL_CONFIRM_JOB,
  MAIL_NEW_STORY_JOB,
  MAIL_SEND_JOB,
  type ConfirmJob,
  type MailService,
  type NewStoryJob,
  type SendJob,
} from './service.ts';

/**
 * Workers of the mailing list. Each may run twice (a crash, a retry): delivery rows make a
 * rerun send nothing already sent, and message ids make a resent one overwrite, not double.
 */
export async function mailJobs(queue: JobQueue, mail: MailService) {
  await queue.work<ConfirmJob>(MAIL_CONFIRM_JOB, async (job) => {
    await mail.sendConfirm(job.data);
  });
  await queue.work<NewStoryJob>(MAIL_NEW_STORY_JOB, async (job) => {
    await mail.newStory(job.data);
  });
  await queue.work<SendJob>(MAIL_SEND_JOB, async (job) => {
    await mail.sendBatch(job.data);
  });
}
