import type { JobQueue } from '../../jobs/queue.ts';
import { PUBLISH_SCHEDULED_JOB, type PublishingService } from './service.ts';

/** Workers of the publishing module: scheduled episodes go out on time, with no request. */
export async function publishingJobs(queue: JobQueue, publishing: PublishingService) {
  await queue.work<{ episodeId: number }>(PUBLISH_SCHEDULED_JOB, async (job) => {
    // Idempotent: an episode already out, unscheduled or moved later is left alone.
    await publishing.publishScheduled(job.data.episodeId);
  });
}
