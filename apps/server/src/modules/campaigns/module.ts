import type { Platform } from '../../platform.ts';
import { campaignsService } from './service.ts';
import { bannerRoutes, campaignRoutes, contestRoutes, reportSimulatorRoutes } from './routes.ts';
import { contestService } from './contest-service.ts';
import { reportJobs } from './report.ts';
import { campaignBanners } from './banner.ts';

/** Campaigns: questionnaires answered by mobile, writing contests and their rankings, ad metrics. */
export async function campaignsModule({ app, db, queue, carrier, config, storage }: Platform) {
  // In development and in the demo (the carrier is the simulator, as under `npm start`) the
  // site's own origin serves the report simulator: exempt from the checks. Never in a deployment.
  const demo = !config.production || config.smsProvider === 'simulator';
  const report = {
    allowedHosts: config.campaigns.reportHosts,
    trustedOrigin: demo ? new URL(config.publicUrl).origin : null,
  };
  const campaigns = campaignsService({
    db,
    queue,
    sms: carrier.sms,
    publicUrl: config.publicUrl,
    report,
  });
  campaignRoutes(app, campaigns);
  const contests = contestService({ db, minAgeDays: config.campaigns.contestMinAccountAgeDays });
  contestRoutes(app, contests);
  await bannerRoutes(app, campaignBanners(db, storage));
  if (demo) reportSimulatorRoutes(app);
  await reportJobs(queue, db, report);
  return { campaigns, contests };
}
