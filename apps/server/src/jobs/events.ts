import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { events } from '../db/schema.ts';
import type { JobQueue } from './queue.ts';

/** Something that happened that other parts of the product react to, never inside the request. */
export type DomainEvent =
  | {
      type: 'episode.published';
      payload: {
        storyId: number;
        episodeId: number;
        partNumber: number;
        /** True for the story's first episode to go out: readers see NEW STORY, not NEW EPISODE. */
        firstEpisode: boolean;
      };
    }
  | {
      /** A comment or a reply (parentId set) was posted; mentions are in comment_mentions. */
      type: 'comment.posted';
      payload: {
        commentId: number;
        storyId: number;
        partNumber: number;
        parentId: number | null;
        userId: number;
      };
    };
export type EventType = DomainEvent['type'];

/**
 * The jobs each event starts, by job name. The issues after publishing add theirs here
 * (notifications, SMS alerts); each job gets `{eventId, ...payload}` and must be idempotent.
 */
export const EVENT_SUBSCRIBERS: Record<EventType, readonly string[]> = {
  'episode.published': ['notify.episode', 'mail.newStory', 'sms.alerts'],
  'comment.posted': ['notify.comment'],
};

/**
 * Records an event and enqueues its subscribers' jobs inside the caller's transaction: the
 * change, the event and the jobs commit together or not at all.
 */
export async function recordEvent(tx: Db, queue: JobQueue, event: DomainEvent): Promise<number> {
  const [row] = await tx
    .insert(events)
    .values({
      type: event.type,
      payload: JSON.stringify(event.payload),
      dispatchedAt: sql`now()`,
    })
    .returning({ id: events.id });
  await enqueueSubscribers(tx, queue, row!.id, event);
  return row!.id;
}

/** A subscriber's job of an event: its data and its key, the same however it is enqueued. */
const jobOf = (job: string, eventId: number, payload: DomainEvent['payload']) => ({
  data: { eventId, ...payload },
  singletonKey: `${job}:${eventId}`,
});

const enqueueSubscribers = async (tx: Db, queue: JobQueue, eventId: number, event: DomainEvent) => {
  for (const job of EVENT_SUBSCRIBERS[event.type]) {
    const { data, singletonKey } = jobOf(job, eventId, event.payload);
    await queue.send(job, data, { singletonKey }, tx);
  }
};

/** The job that turns events recorded without their jobs (dispatched_at null) into those jobs. */
export const DISPATCH_JOB = 'events.dispatch';
/** Events one dispatch transaction takes. */
const DISPATCH_BATCH = 200;
/**
 * A dispatch job starts this long after it is asked for, and one asked for covers the events
 * of the next COVERED_MS: it starts after they committed, with room for the clocks of the
 * database and of this process to differ (pg-boss keeps one job per 1-second slot).
 */
const DISPATCH_DELAY_MS = 2_000;
const COVERED_MS = 800;

/**
 * Enqueues the jobs of events recorded without them, as an outbox: a write that records its
 * event in the same statement as its change (a comment) needs no transaction and no job
 * insert of its own. Each batch takes its events with `for update skip locked` and marks them
 * dispatched in the transaction that enqueues their jobs, so two dispatchers never both take
 * one, and the jobs' singleton keys (as recordEvent's) keep a retry from doubling them.
 */
export async function dispatchEvents(db: Db, queue: JobQueue): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const { rows } = (await tx.execute(sql`
        select id, type, payload from events where dispatched_at is null
        order by id limit ${DISPATCH_BATCH} for update skip locked`)) as unknown as {
        rows: { id: number; type: EventType; payload: string }[];
      };
      // Each subscriber's jobs of the whole batch in one statement.
      const jobs = new Map<string, ReturnType<typeof jobOf>[]>();
      for (const r of rows) {
        const payload = JSON.parse(r.payload) as DomainEvent['payload'];
        for (const job of EVENT_SUBSCRIBERS[r.type]) {
          let list = jobs.get(job);
          if (!list) jobs.set(job, (list = []));
          list.push(jobOf(job, r.id, payload));
        }
      }
      for (const [job, list] of jobs) await queue.sendMany(job, list, tx);
      if (rows.length > 0)
        await tx.execute(sql`update events set dispatched_at = now()
          where id in (${sql.join(
            rows.map((r) => sql`${r.id}`),
            sql`, `,
          )})`);
      return rows.length;
    });
    total += n;
    if (n < DISPATCH_BATCH) return total;
  }
}

/** Asks for the events recorded without their jobs to be dispatched soon (eventDispatch). */
export interface EventDispatch {
  soon(): Promise<void>;
}

/**
 * Runs the dispatcher on the queue and sweeps once at start-up (an event whose process stopped
 * between its commit and soon()). soon() sends at most one job per COVERED_MS per process: a
 * burst of comments costs one job, not one each. Best effort: a failed ask is made good by the
 * next one, or by the sweep at the next start.
 */
export async function eventDispatch(db: Db, queue: JobQueue): Promise<EventDispatch> {
  await queue.work(DISPATCH_JOB, async () => {
    await dispatchEvents(db, queue);
  });
  const ask = () =>
    queue.send(
      DISPATCH_JOB,
      {},
      {
        singletonKey: DISPATCH_JOB,
        singletonSeconds: 1,
        startAfter: new Date(Date.now() + DISPATCH_DELAY_MS),
        retryLimit: 10,
      },
    );
  // The sweep at start-up is asked for as any other: every job of a slot starts
  // DISPATCH_DELAY_MS after a moment of it, so the cover below holds for the first slot too.
  await ask();
  let coveredUntil = 0;
  return {
    async soon() {
      const now = Date.now();
      if (now < coveredUntil) return;
      // Covered whether this send makes the slot's job or finds it made: either starts
      // DISPATCH_DELAY_MS after a moment of the same 1-second slot. Set before the send, so
      // callers meanwhile do not send too.
      coveredUntil = now + COVERED_MS;
      try {
        await ask();
      } catch (err) {
        // The change is committed: its caller is answered. The next ask (or start-up) takes it.
        coveredUntil = 0;
        console.error(`Could not ask for the events' dispatch: ${(err as Error).message}`);
      }
    },
  };
}
