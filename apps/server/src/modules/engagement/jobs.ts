import type { JobQueue } from '../../jobs/queue.ts';
import { STATS_ROLLUP_JOB } from '../statistics/jobs.ts';
import { RATINGS_JOB, ROLLUP_JOB, type EngagementService } from './service.ts';

/** Workers of the engagement module: counted views become reads and trending, off the request. */
export async function engagementJobs(queue: JobQueue, engagement: EngagementService) {
  await queue.work<{ full?: boolean }>(ROLLUP_JOB, async (job) => {
    // Idempotent: the roll-up recomputes from story_views, so a rerun changes nothing.
    await engagement.rollup({ full: job.data.full === true });
    // Authors' statistics roll up the same views per part: after this, as often as this.
    await queue.send(STATS_ROLLUP_JOB, { full: job.data.full === true }, { retryLimit: 2 });
  });
  await queue.work<{ storyId?: number }>(RATINGS_JOB, async (job) => {
    // Idempotent: the story's mean and count are recomputed from its rating rows.
    if (typeof job.data.storyId === 'number') await engagement.refreshRating(job.data.storyId);
  });
  // Once at start-up, every day: makes good a roll-up lost while the server was down.
  await queue.send(ROLLUP_JOB, { full: true }, { retryLimit: 2 });
}
