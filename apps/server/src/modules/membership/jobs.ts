import type { JobQueue } from '../../jobs/queue.ts';
import type { MembershipService } from './service.ts';

export const RECONCILE_JOB = 'carrier.reconcile';

/** The reconciliation runs daily at this hour, Sri Lanka time (UTC+05:30): a quiet hour. */
const RECONCILE_HOUR_LK = 2;
const LK_OFFSET_MS = 5.5 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** The first RECONCILE_HOUR_LK o'clock in Sri Lanka after `from`. */
export const nextReconcileAt = (from: Date): Date => {
  const local = from.getTime() + LK_OFFSET_MS;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS;
  let run = dayStart + RECONCILE_HOUR_LK * 3600 * 1000;
  if (run <= local) run += DAY_MS;
  return new Date(run - LK_OFFSET_MS);
};

/**
 * pg-boss keeps one job per key in each slot this long (set when pg-boss allowed at most 12 hours;
 * a run that slips through a slot's edge is harmless, the run being idempotent).
 */
const SLOT_SECONDS = 12 * 3600;

/**
 * Sends the next daily run. Our queue has no cron, so each run sends the next one. The key
 * names the run's day and pg-boss keeps one job per key per 12-hour slot it is sent in, so a
 * restart (or a retry of the job) does not add a second run; if one slips through, the run is
 * idempotent anyway.
 */
const scheduleNext = async (queue: JobQueue, from: Date) => {
  const at = nextReconcileAt(from);
  await queue.send(
    RECONCILE_JOB,
    {},
    {
      startAfter: at,
      singletonKey: `${RECONCILE_JOB}:${at.toISOString().slice(0, 10)}`,
      singletonSeconds: SLOT_SECONDS,
      retryLimit: 3,
    },
  );
};

/** Workers of the membership module: the daily reconciliation with the carrier. */
export async function membershipJobs(queue: JobQueue, membership: MembershipService) {
  await queue.work(RECONCILE_JOB, async () => {
    // The next run is sent first: a run that fails for good must not end the daily chain.
    await scheduleNext(queue, new Date(Date.now() + 60_000));
    // Idempotent: it compares with the carrier's word now and corrects only what differs.
    await membership.reconcile();
  });
  // Started at boot: the chain begins (or a lost link is made good) on every start.
  await scheduleNext(queue, new Date());
}
