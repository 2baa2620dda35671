import { sql, type SQL } from 'drizzle-orm';
import { PRODUCT_APP_ID } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { published } from '../stories/repo.ts';

/** What the alert toggle needs to know about a story and the viewer, in one round trip. */
export interface AlertStory {
  membersOnly: boolean;
  /** The author's billing app (the product app when the author has none). */
  appId: string;
  /** That app's SMS keyword, e.g. 'REG KATHAMALA' (SPEC.md 8's alert failure message). */
  keyword: string;
  /** The viewer holds an active subscription to that app. */
  subscribed: boolean;
}

/** What the fan-out job needs about the story and the episode that went out. */
export interface FanOutContext {
  title: string;
  language: 'sinhala' | 'english';
  appId: string;
  /** The story's release date when it is still ahead, else null. */
  releaseAhead: Date | null;
  /** 'published' unless the episode was withdrawn or deleted since. */
  episodeStatus: string | null;
}

/** A pending alert SMS. */
export interface Delivery {
  id: number;
  mobile: string;
}

const asDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/** Queries behind SMS alerts. Pass a transaction to run inside it. */
export const alertsRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;

  return {
    /** A public story with its author's app and whether the viewer is subscribed; undefined if none. */
    publicStory: async (storyId: number, userId: number) =>
      (
        await rows<AlertStory>(sql`
          select s.members_only as "membersOnly", b.app_id as "appId", b.keyword,
            exists (select 1 from subscriptions u where u.user_id = ${userId}
              and u.app_id = b.app_id and u.status = 'active') as subscribed
          from stories s join authors a on a.id = s.author_id
            join billing_apps b on b.app_id = coalesce(a.app_id, ${PRODUCT_APP_ID})
          where s.id = ${storyId} and ${published}`)
      )[0],

    /** Removes the viewer's alert for the story; true when there was one. */
    removeAlert: async (userId: number, storyId: number) =>
      (
        await rows(sql`delete from story_alerts where user_id = ${userId} and story_id = ${storyId}
          returning 1`)
      ).length > 0,

    /**
     * Adds the viewer's alert and lifts a STOP on the mobiles they subscribed to the app with:
     * turning an alert on is new consent. Run inside a transaction.
     */
    addAlert: async (userId: number, storyId: number, appId: string) => {
      await db.execute(sql`insert into story_alerts (user_id, story_id)
        values (${userId}, ${storyId}) on conflict do nothing`);
      await db.execute(sql`delete from sms_opt_outs where mobile in (
        select mobile from subscriptions where user_id = ${userId} and app_id = ${appId}
          and status = 'active')`);
    },

    fanOutContext: async (storyId: number, episodeId: number) => {
      const [r] = await rows<{
        title: string;
        language: 'sinhala' | 'english';
        appId: string;
        releaseAhead: Date | string | null;
        episodeStatus: string | null;
      }>(sql`
        select s.title, s.language, coalesce(a.app_id, ${PRODUCT_APP_ID}) as "appId",
          case when s.release_at > now() then s.release_at end as "releaseAhead",
          e.status as "episodeStatus"
        from stories s join authors a on a.id = s.author_id
          left join episodes e on e.id = ${episodeId} and e.story_id = s.id
        where s.id = ${storyId}`);
      return r ? { ...r, releaseAhead: asDate(r.releaseAhead) } : undefined;
    },

    /**
     * Writes one pending delivery per alert subscriber of the story, in one statement: readers
     * with the alert on and an active subscription to the author's app, not opted out by STOP.
     * One per reader (their newest subscribed mobile) and, by the unique key, one per mobile per
     * event; a rerun adds only readers who were not there before. Answers how many were added.
     */
    planDeliveries: async (eventId: number, storyId: number, appId: string) =>
      (
        await rows(sql`
          insert into alert_deliveries (event_id, user_id, story_id, app_id, mobile)
          select distinct on (a.user_id) ${eventId}::int, a.user_id, ${storyId}::int, u.app_id, u.mobile
          from story_alerts a
            join subscriptions u on u.user_id = a.user_id and u.app_id = ${appId}
              and u.status = 'active'
          where a.story_id = ${storyId}
            and not exists (select 1 from sms_opt_outs o where o.mobile = u.mobile)
            and not exists (select 1 from alert_deliveries d
              where d.event_id = ${eventId} and d.user_id = a.user_id)
          order by a.user_id, u.started_at desc, u.id desc
          on conflict (event_id, mobile) do nothing
          returning 1`)
      ).length,

    /** The next pending deliveries of an event after `afterId`, oldest first. */
    pending: (eventId: number, afterId: number, limit: number) =>
      rows<Delivery>(sql`
        select id, mobile from alert_deliveries
        where event_id = ${eventId} and status = 'pending' and id > ${afterId}
        order by id limit ${limit}`),

    markSent: async (id: number) => {
      await db.execute(
        sql`update alert_deliveries set status = 'sent', sent_at = now() where id = ${id}`,
      );
    },

    /** Events with deliveries still pending (a server stopped midway), with their job data. */
    unfinishedEvents: async () =>
      (
        await rows<{ eventId: number; payload: string }>(sql`
          select e.id as "eventId", e.payload from events e
          where e.id in (select distinct event_id from alert_deliveries where status = 'pending')
          order by e.id`)
      ).map((r) => ({ eventId: Number(r.eventId), payload: JSON.parse(r.payload) as object })),

    /**
     * STOP from a mobile: no alert SMS to it any more. Records the opt-out, removes the alerts
     * of the accounts that subscribed with it and skips its deliveries not yet sent.
     */
    optOut: async (mobile: string) => {
      await db.execute(sql`insert into sms_opt_outs (mobile) values (${mobile})
        on conflict (mobile) do update set at = now()`);
      await db.execute(sql`delete from story_alerts where user_id in (
        select user_id from subscriptions where mobile = ${mobile} and user_id is not null)`);
      await db.execute(sql`update alert_deliveries set status = 'skipped'
        where mobile = ${mobile} and status = 'pending'`);
    },
  };
};
export type AlertsRepo = ReturnType<typeof alertsRepo>;
