import type { Platform } from '../../platform.ts';
import type { AuthService } from '../auth/service.ts';
import type { StoriesService } from '../stories/service.ts';
import { engagementService } from './service.ts';
import { engagementRoutes } from './routes.ts';
import { engagementJobs } from './jobs.ts';

/** Ratings, claps, bookmarks and views, and their roll-up jobs; stories come from their service. */
export async function engagementModule(p: Platform, auth: AuthService, stories: StoriesService) {
  const engagement = engagementService({
    db: p.db,
    queue: p.queue,
    reissueToken: (viewer) => auth.reissue(viewer),
    invalidate: p.invalidate,
    story: stories.story,
    subscribed: stories.subscribed,
  });
  engagementRoutes(p.app, engagement);
  await engagementJobs(p.queue, engagement);
  return engagement;
}
