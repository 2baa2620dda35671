import type { JobQueue } from '../../jobs/queue.ts';
import type { CarrierDispatch } from '../carrier/dispatch.ts';
import {
  SMS_ALERTS_JOB,
  SMS_SEND_JOB,
  type AlertsJob,
  type AlertsService,
  type SmsJob,
} from './service.ts';

/**
 * Workers of the alerts module and its STOP handler. Each job may run twice (a crash, a
 * retry): deliveries are written down before sending and every SMS carries a ref the carrier
 * deduplicates, so a rerun sends no one a second SMS.
 */
export async function alertJobs(queue: JobQueue, alerts: AlertsService, dispatch: CarrierDispatch) {
  dispatch.onSms((tx, n) => alerts.onSms(tx, n));
  await queue.work<AlertsJob>(SMS_ALERTS_JOB, async (job) => {
    await alerts.fanOut(job.data);
  });
  await queue.work<SmsJob>(SMS_SEND_JOB, async (job) => {
    await alerts.sendOne(job.data);
  });
  // A fan-out its server died in the middle of goes on now, not minutes later at job expiry.
  await alerts.resumeUnfinished();
}
