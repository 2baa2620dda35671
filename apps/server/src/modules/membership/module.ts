import type { Platform } from '../../platform.ts';
import { membershipService } from './service.ts';
import { membershipRoutes } from './routes.ts';
import { membershipJobs } from './jobs.ts';

/** Membership by mobile carrier: subscribe, verify, leave, and the carrier's notices. */
export async function membershipModule({ app, db, carrier, dispatch, queue }: Platform) {
  const membership = membershipService({ db, billing: carrier.billing });
  membershipRoutes(app, membership);
  dispatch.onSubscription((tx, n) => membership.applyNotification(tx, n));
  await membershipJobs(queue, membership);
}
