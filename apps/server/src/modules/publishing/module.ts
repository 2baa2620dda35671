import type { Platform } from '../../platform.ts';
import type { AuthService } from '../auth/service.ts';
import { coversService } from '../covers/service.ts';
import { coverRoutes } from '../covers/routes.ts';
import { publishingService } from './service.ts';
import { publishingRoutes } from './routes.ts';
import { publishingJobs } from './jobs.ts';

/** Authors publish: stories, episodes, covers, and the scheduled-publishing jobs. */
export async function publishingModule(p: Platform, auth: AuthService) {
  const covers = coversService(p.storage);
  const publishing = publishingService({
    db: p.db,
    queue: p.queue,
    covers,
    reissueToken: (viewer) => auth.refresh(viewer),
    invalidate: p.invalidate,
  });
  publishingRoutes(p.app, publishing);
  await coverRoutes(p.app, covers, publishing, {
    imagesHost: p.config.imagesHost,
    uploadsPerMinute: p.config.rateLimit.uploadMax,
  });
  await publishingJobs(p.queue, publishing);
  return { publishing, covers };
}
