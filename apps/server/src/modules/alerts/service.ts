import { alertSmsText, MEMBERSHIP_MESSAGES, ResultCode, type AlertAnswer } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { AppError, notFound } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { SmsAdapter } from '../../adapters/sms/types.ts';
import type { SmsNotification } from '../carrier/dispatch.ts';
import { alertsRepo, type Delivery } from './repo.ts';

/** Started by 'episode.published' (EVENT_SUBSCRIBERS in jobs/events.ts). */
export const SMS_ALERTS_JOB = 'sms.alerts';
/** One SMS to one number; the ref makes a rerun deliver nothing twice. */
export const SMS_SEND_JOB = 'sms.send';

/** The 'episode.published' payload with its event id, as recordEvent sends it. */
export interface AlertsJob {
  eventId: number;
  storyId: number;
  episodeId: number;
  partNumber: number;
  firstEpisode: boolean;
  /** Set on a continuation: the deliveries are planned already, only sending is left. */
  resume?: boolean;
}

export interface SmsJob {
  to: string;
  text: string;
  appId: string;
  ref: string;
}

/** Deliveries read from the database at a time. */
const BATCH = 100;
/** SMS in flight at once: the carrier answers each call in tens of milliseconds. */
const PARALLEL = 4;
/**
 * A fan-out job hands the rest to a fresh job after this long, well within the queue's
 * 5-minute expiry: a job still running at expiry would be started a second time alongside.
 */
const JOB_BUDGET_MS = 60_000;
/** A story released later is looked at again at most this far ahead (as notify.episode). */
const DEFER_MAX_MS = 3600_000;

/** The texts that stop alerts, trimmed and upper-cased, inner spaces folded. */
const STOP_WORDS = new Set(['STOP', 'STOP ALERTS', 'STOP KATHAMALA']);

/** True for an SMS that asks for no more alerts. */
export const isStop = (text: string) =>
  STOP_WORDS.has(text.trim().replace(/\s+/g, ' ').toUpperCase());

export interface AlertsDeps {
  db: Db;
  queue: JobQueue;
  sms: SmsAdapter;
  /** The site's address: alert links point here. */
  publicUrl: string;
}

/** SMS alerts: the reader's toggle, the fan-out when an episode goes out, and STOP. */
export function alertsService(deps: AlertsDeps) {
  const { db, queue, sms } = deps;
  const repo = alertsRepo(db);

  /** Sends one delivery and marks it sent; a throw (CarrierError) leaves it pending for a retry. */
  const deliver = async (d: Delivery, text: string, appId: string) => {
    await sms.send({ to: [d.mobile], text, appId, ref: `alert:${d.id}` });
    await repo.markSent(d.id);
  };

  return {
    /**
     * Turns the viewer's alert for a story off when it is on, else on. Turning it on needs the
     * viewer's mobile subscribed to the author's app (members-only or not); turning it off never
     * does, so a reader whose membership ended can still silence a story.
     */
    async toggle(viewer: Viewer, storyId: number): Promise<AlertAnswer> {
      const story = await repo.publicStory(storyId, viewer.userId);
      if (!story) throw notFound('We could not find that story. It may have been removed.');
      if (await repo.removeAlert(viewer.userId, storyId)) return { alertEnabled: false };
      if (!story.subscribed)
        throw new AppError(
          403,
          ResultCode.subscriptionRequired,
          MEMBERSHIP_MESSAGES.alertFailure(story.keyword),
        );
      await db.transaction(async (tx) =>
        alertsRepo(tx as unknown as Db).addAlert(viewer.userId, storyId, story.appId),
      );
      return { alertEnabled: true };
    },

    /**
     * The alert SMS for an episode that went out: one per alert subscriber, written down
     * (alert_deliveries) before any is sent and marked after each is. A rerun or a second
     * runner resends only what is not marked, with the same ref, which the carrier drops: no one
     * gets two, no one is skipped. A story not yet released is looked at again at its release.
     */
    async fanOut(
      job: AlertsJob,
    ): Promise<{ planned: number; sent: number; more: boolean } | { deferTo: Date }> {
      const ctx = await repo.fanOutContext(job.storyId, job.episodeId);
      // Deleted since, or withdrawn before release: nothing readers could open.
      if (!ctx || ctx.episodeStatus !== 'published') return { planned: 0, sent: 0, more: false };
      if (ctx.releaseAhead) {
        const deferTo = new Date(Math.min(ctx.releaseAhead.getTime(), Date.now() + DEFER_MAX_MS));
        await queue.send(SMS_ALERTS_JOB, job, {
          startAfter: deferTo,
          singletonKey: `${SMS_ALERTS_JOB}:${job.eventId}`,
        });
        return { deferTo };
      }
      const planned = job.resume
        ? 0
        : await repo.planDeliveries(job.eventId, job.storyId, ctx.appId);
      const text = alertSmsText({
        title: ctx.title,
        partNumber: job.partNumber,
        language: ctx.language,
        firstEpisode: job.firstEpisode,
        url: `${deps.publicUrl}/details/${job.storyId}/${job.partNumber}/`,
      });
      const until = Date.now() + JOB_BUDGET_MS;
      let sent = 0;
      let after = 0;
      for (;;) {
        const batch = await repo.pending(job.eventId, after, BATCH);
        if (!batch.length) return { planned, sent, more: false };
        after = batch[batch.length - 1]!.id;
        let next = 0;
        let failed = false;
        const lanes = Array.from({ length: Math.min(PARALLEL, batch.length) }, async () => {
          while (next < batch.length && !failed) {
            try {
              await deliver(batch[next++]!, text, ctx.appId);
              sent += 1;
            } catch (err) {
              // The other lanes stop too; the job fails and is retried with backoff.
              failed = true;
              throw err;
            }
          }
        });
        const outcomes = await Promise.allSettled(lanes);
        const failure = outcomes.find((o) => o.status === 'rejected');
        if (failure) throw failure.reason;
        if (Date.now() > until) {
          await queue.send(SMS_ALERTS_JOB, { ...job, resume: true } satisfies AlertsJob, {
            singletonKey: `${SMS_ALERTS_JOB}:${job.eventId}`,
          });
          return { planned, sent, more: true };
        }
      }
    },

    /**
     * After a restart: a fan-out stopped midway (its server died) is resumed now, rather than
     * when the queue expires its job minutes later. If its first runner is in fact alive on
     * another server, both send, and the carrier drops the repeats by their refs.
     */
    async resumeUnfinished(): Promise<number> {
      const unfinished = await repo.unfinishedEvents();
      for (const e of unfinished)
        await queue.send(
          SMS_ALERTS_JOB,
          { ...(e.payload as Omit<AlertsJob, 'eventId'>), eventId: e.eventId, resume: true },
          { singletonKey: `${SMS_ALERTS_JOB}:${e.eventId}` },
        );
      return unfinished.length;
    },

    /** Sends one queued SMS (the STOP confirmation); the ref keeps a rerun from delivering twice. */
    async sendOne(job: SmsJob): Promise<void> {
      await sms.send({ to: [job.to], text: job.text, appId: job.appId, ref: job.ref });
    },

    /**
     * An SMS from a phone, inside the webhook's transaction: STOP (or STOP ALERTS, STOP
     * KATHAMALA) ends alert SMS to that mobile and queues one confirmation. Other texts are
     * not ours.
     */
    async onSms(tx: Db, n: SmsNotification): Promise<void> {
      if (!isStop(n.text)) return;
      await alertsRepo(tx).optOut(n.mobile);
      await queue.send(
        SMS_SEND_JOB,
        {
          to: n.mobile,
          text: `Kathamala SMS alerts are off. To get them again, open a story at ${deps.publicUrl} and turn on Alerts.`,
          appId: n.appId,
          ref: `stop:${n.id}`,
        } satisfies SmsJob,
        {},
        tx,
      );
    },
  };
}
export type AlertsService = ReturnType<typeof alertsService>;
