import type { Platform } from '../../platform.ts';
import { notificationsService } from './service.ts';
import { notificationRoutes } from './routes.ts';
import { notificationJobs } from './jobs.ts';
import { loadVapidKeys } from './vapid.ts';
import { webPushSender } from './push.ts';

/** In-app notifications and web push, delivered by jobs. */
export async function notificationsModule({ app, db, queue, config, memory, secrets }: Platform) {
  const vapid = await loadVapidKeys(memory ? null : config.dataDir, config.vapid, secrets);
  const notifications = notificationsService({
    db,
    queue,
    push: webPushSender(vapid, { allowHttp: !config.production }),
    allowHttpPush: !config.production,
  });
  notificationRoutes(app, notifications);
  await notificationJobs(queue, notifications);
}
