import type { Platform } from '../../platform.ts';
import { statisticsService } from './service.ts';
import { statisticsRoutes } from './routes.ts';
import { statisticsJobs } from './jobs.ts';

/** Authors' statistics and their roll-up jobs. */
export async function statisticsModule({ app, db, queue }: Platform) {
  const statistics = statisticsService({ db });
  statisticsRoutes(app, statistics);
  await statisticsJobs(queue, statistics);
}
