import type { JobQueue } from '../../jobs/queue.ts';
import type { StatisticsService } from './service.ts';

/**
 * Rolls views up per part per day, readers per part and readers's days. Sent by the views roll-up
 * ('engagement.rollup') when it has run, so it comes at most once a minute, after it, and a
 * full one follows the full roll-up at start-up.
 */
export const STATS_ROLLUP_JOB = 'stats.rollup';

/** Workers of the statistics module. */
export async function statisticsJobs(queue: JobQueue, stats: StatisticsService) {
  await queue.work<{ full?: boolean }>(STATS_ROLLUP_JOB, async (job) => {
    // Idempotent: it recomputes from story_views, so a rerun changes nothing.
    await stats.rollup({ full: job.data.full === true });
  });
}
