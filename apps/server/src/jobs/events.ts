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
    .values({ type: event.type, payload: JSON.stringify(event.payload) })
    .returning({ id: events.id });
  await enqueueSubscribers(tx, queue, row!.id, event);
  return row!.id;
}

/**
 * Enqueues the subscribers' jobs of an event whose row the caller inserted (in one statement
 * with the change it records), inside the same transaction.
 */
export async function enqueueSubscribers(
  tx: Db,
  queue: JobQueue,
  eventId: number,
  event: DomainEvent,
): Promise<void> {
  for (const job of EVENT_SUBSCRIBERS[event.type])
    await queue.send(job, { eventId, ...event.payload }, { singletonKey: `${job}:${eventId}` }, tx);
}
