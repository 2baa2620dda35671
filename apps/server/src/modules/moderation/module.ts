import type { Platform } from '../../platform.ts';
import { useRolesDb } from '../community/roles.ts';
import { moderationRoutes } from './routes.ts';
import { moderationService, REVIEW_NOTIFY_JOB, type ReviewNotifyJob } from './service.ts';

/** Editors' review: flags, the one review queue, decisions, holds and the kept word list. */
export async function moderationModule({ app, db, queue, invalidate }: Platform): Promise<void> {
  // The editors' guard reads roles from this database (the community module sets it too).
  useRolesDb(db);
  const review = moderationService({ db, queue, dropFeeds: invalidate });
  moderationRoutes(app, review);
  await queue.work<ReviewNotifyJob>(REVIEW_NOTIFY_JOB, async (job) => {
    await review.notify(job.data);
  });
}
