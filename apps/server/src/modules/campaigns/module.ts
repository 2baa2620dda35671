import type { Platform } from '../../platform.ts';
import { campaignsService } from './service.ts';
import { campaignRoutes, contestRoutes } from './routes.ts';
import { contestService } from './contest-service.ts';

/** Campaigns: questionnaires answered by mobile, writing contests and their rankings, ad metrics. */
export async function campaignsModule({
  app,
  db,
  queue,
  carrier,
  config,
}: Platform): Promise<void> {
  const campaigns = campaignsService({ db, queue, sms: carrier.sms, publicUrl: config.publicUrl });
  campaignRoutes(app, campaigns);
  contestRoutes(app, contestService({ db, minAgeDays: config.campaigns.contestMinAccountAgeDays }));
}
