import type { Platform } from '../../platform.ts';
import { alertsService } from './service.ts';
import { alertRoutes } from './routes.ts';
import { alertJobs } from './jobs.ts';

/** SMS alerts of new episodes, sent by jobs. */
export async function alertsModule({ app, db, queue, carrier, dispatch, config }: Platform) {
  const alerts = alertsService({ db, queue, sms: carrier.sms, publicUrl: config.publicUrl });
  alertRoutes(app, alerts);
  await alertJobs(queue, alerts, dispatch);
}
