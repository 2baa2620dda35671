import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { CarrierStatus } from '../../adapters/billing/types.ts';
import type { SubscriptionNotification } from '../carrier/dispatch.ts';

/** Keeps code requests of one account in a line across server instances (the limits count them). */
const ACCOUNT_CODES_LOCK = 727_200;
/** The same for one mobile number, whoever asks for it. */
const MOBILE_CODES_LOCK = 727_201;

/** A code request as verification needs it; `expired` is decided by the database's clock. */
export interface CodeRow {
  refId: string;
  userId: number;
  appId: string;
  mobile: string;
  carrierRef: string;
  attempts: number;
  consumed: boolean;
  expired: boolean;
  /** The story whose wall the code was asked from (statistics count members gained by it). */
  storyId: number | null;
}

/** A subscription row with its app, as the details answer shows it. */
export interface MembershipRow {
  appId: string;
  name: string;
  keyword: string;
  mobile: string;
  status: CarrierStatus;
  startedAt: Date | string;
  nextChargeAt: Date | string | null;
}

/** A subscription the reconciliation asks the carrier about. */
export interface ReconcileRow {
  id: number;
  appId: string;
  mobile: string;
  status: CarrierStatus;
  /** state_at as the database writes it (microseconds kept): the row's version. */
  stateKey: string;
}

/** The SQL of membership: codes, subscriptions, carrier notifications, reconciliation. */
export const membershipRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];

  /** How many codes match `where` in the window (the newest `limit`), and when the oldest leaves it. */
  const recent = async (where: SQL, windowMinutes: number, limit: number) => {
    const r = await one<{ n: number; wait: number | null }>(sql`
      select count(*)::int as n,
        ceil(extract(epoch from (min(created_at) + make_interval(mins => ${windowMinutes}) - now())))::int as wait
      from (select created_at from membership_codes
            where ${where} and created_at > now() - make_interval(mins => ${windowMinutes})
            order by created_at desc limit ${limit}) recent`);
    return { count: Number(r?.n ?? 0), waitSeconds: Math.max(1, Number(r?.wait ?? 1)) };
  };

  return {
    /** A billing app by its id; undefined when there is none. */
    app: (appId: string) =>
      one<{ appId: string; name: string; keyword: string }>(
        sql`select app_id as "appId", name, keyword from billing_apps where app_id = ${appId}`,
      ),

    /**
     * Waits for other code requests of this account and of this number in flight, so two at
     * once cannot both pass a limit. Always account first, then number: no deadlock.
     */
    lockRequests: async (userId: number, mobile: string) => {
      await db.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_CODES_LOCK}, ${userId})`);
      await db.execute(
        sql`select pg_advisory_xact_lock(${MOBILE_CODES_LOCK}, hashtext(${mobile}))`,
      );
    },

    /** Codes sent to this number in the last `windowMinutes`, whoever asked. */
    recentForMobile: (mobile: string, windowMinutes: number, limit: number) =>
      recent(sql`mobile = ${mobile}`, windowMinutes, limit),

    /** Codes this account asked for in the last `windowMinutes`. */
    recentForAccount: (userId: number, windowMinutes: number, limit: number) =>
      recent(sql`user_id = ${userId}`, windowMinutes, limit),

    /** Whether the account holds an active subscription to the app (any of its numbers). */
    isActive: async (userId: number, appId: string) =>
      (
        await rows(sql`select 1 from subscriptions
          where user_id = ${userId} and app_id = ${appId} and status = 'active' limit 1`)
      ).length > 0,

    /**
     * Holds a place for a code before the carrier is asked, so the limits count it while the
     * carrier works; `carrier_ref` stays empty until the carrier answers (verify refuses it).
     */
    reserveCode: (v: {
      refId: string;
      userId: number;
      appId: string;
      mobile: string;
      ttlMinutes: number;
      storyId?: number | null;
    }) =>
      // An unknown story id is kept as none: it only attributes the join, it never refuses one.
      db.execute(sql`
        insert into membership_codes (ref_id, user_id, app_id, mobile, carrier_ref, expires_at, story_id)
        values (${v.refId}, ${v.userId}, ${v.appId}, ${v.mobile}, '',
          now() + make_interval(mins => ${v.ttlMinutes}),
          (select id from stories where id = ${v.storyId ?? null}::int))`),

    /** The carrier's reference for a reserved code; from now on it can be verified. */
    setCarrierRef: (refId: string, carrierRef: string) =>
      db.execute(
        sql`update membership_codes set carrier_ref = ${carrierRef} where ref_id = ${refId}`,
      ),

    /** Forgets a reservation the carrier did not take: it never counts against a limit. */
    dropCode: (refId: string) =>
      db.execute(sql`delete from membership_codes where ref_id = ${refId}`),

    /** The account's code request by refId; undefined for someone else's or an unknown one. */
    code: async (refId: string, userId: number) => {
      const r = await one<CodeRow>(sql`
        select ref_id as "refId", user_id as "userId", app_id as "appId", mobile,
          carrier_ref as "carrierRef", attempts, consumed_at is not null as consumed,
          expires_at <= now() as expired, story_id as "storyId"
        from membership_codes
        where ref_id = ${refId} and user_id = ${userId} and carrier_ref <> ''`);
      return r && { ...r, attempts: Number(r.attempts) };
    },

    /**
     * Counts one try, only while the code is live and has tries left; answers the tries made,
     * or null when none was left. One statement, so parallel guesses cannot pass the limit.
     */
    countTry: async (refId: string, maxTries: number) => {
      const r = await one<{ attempts: number }>(sql`
        update membership_codes set attempts = attempts + 1
        where ref_id = ${refId} and attempts < ${maxTries} and consumed_at is null
          and expires_at > now()
        returning attempts`);
      return r ? Number(r.attempts) : null;
    },

    /** Gives a try back when the carrier could not check it (it learned nothing from it). */
    refundTry: (refId: string) =>
      db.execute(sql`update membership_codes set attempts = greatest(attempts - 1, 0)
        where ref_id = ${refId} and consumed_at is null`),

    /** Marks the code used; false when it already was (a parallel verify got there first). */
    consume: async (refId: string) =>
      (
        await rows(sql`update membership_codes set consumed_at = now()
          where ref_id = ${refId} and consumed_at is null returning ref_id`)
      ).length > 0,

    /**
     * The number is proved by `userId`: its subscription to the app is theirs and active now.
     * An already active row keeps its start; any other starts now.
     */
    activate: (v: { userId: number; appId: string; mobile: string; nextChargeAt: Date | null }) =>
      db.execute(sql`
        insert into subscriptions (user_id, app_id, mobile, status, started_at, state_at, next_charge_at)
        values (${v.userId}, ${v.appId}, ${v.mobile}, 'active', now(), now(),
          ${v.nextChargeAt ? v.nextChargeAt.toISOString() : null})
        on conflict (app_id, mobile) do update set
          user_id = excluded.user_id,
          status = 'active',
          started_at = case when subscriptions.status = 'active' then subscriptions.started_at
            else excluded.started_at end,
          ended_at = null,
          state_at = excluded.state_at,
          next_charge_at = coalesce(excluded.next_charge_at, subscriptions.next_charge_at)`),

    /**
     * Records a membership that begins now for the account, with the story whose wall it came
     * from. Run before `activate` in its transaction: a number already active for this account
     * is no new member and writes nothing.
     */
    recordJoin: (v: { userId: number; appId: string; mobile: string; storyId: number | null }) =>
      db.execute(sql`
        insert into membership_joins (user_id, app_id, story_id)
        select ${v.userId}, ${v.appId}, ${v.storyId}::int
        where not exists (select 1 from subscriptions where app_id = ${v.appId}
          and mobile = ${v.mobile} and user_id = ${v.userId} and status = 'active')`),

    /** The account's subscriptions with their apps, newest first. */
    memberships: (userId: number) =>
      rows<MembershipRow>(sql`
        select s.app_id as "appId", b.name, b.keyword, s.mobile, s.status,
          s.started_at as "startedAt", s.next_charge_at as "nextChargeAt"
        from subscriptions s join billing_apps b on b.app_id = s.app_id
        where s.user_id = ${userId}
        order by s.started_at desc, s.id desc`),

    /** The account's numbers subscribed to the app (active or lapsed): what leaving ends. */
    leavable: (userId: number, appId: string) =>
      rows<{ id: number; mobile: string }>(sql`
        select id, mobile from subscriptions
        where user_id = ${userId} and app_id = ${appId} and status in ('active', 'lapsed')
        order by id`),

    /** Ends these subscriptions now (we told the carrier first). */
    end: (ids: number[]) =>
      db.execute(sql`
        update subscriptions set status = 'ended', ended_at = now(), state_at = now(),
          next_charge_at = null
        where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`),

    /**
     * Applies one carrier notification to the number's subscription, creating the row if the
     * number is new to us (joined by SMS). Only a notification at least as new as the row's
     * state applies: one that arrives late (UNREG overtaken by its REG) changes nothing.
     * Answers whether it applied.
     */
    applyNotification: async (n: SubscriptionNotification) => {
      const at = n.at.toISOString();
      const status = n.type === 'UNREG' ? 'ended' : n.type === 'CHARGE_FAIL' ? 'lapsed' : 'active';
      const nextChargeAt = n.type === 'CHARGE_OK' ? n.nextChargeAt.toISOString() : null;
      const lastChargedAt = n.type === 'CHARGE_OK' ? at : null;
      const endedAt = n.type === 'UNREG' ? at : null;
      // Becoming active after an end starts a new membership; a paid-up lapse continues one.
      const startedAt =
        status === 'active'
          ? sql`case when subscriptions.status in ('active', 'lapsed') then subscriptions.started_at
              else excluded.started_at end`
          : sql`subscriptions.started_at`;
      const nextCharge =
        n.type === 'CHARGE_OK'
          ? sql`excluded.next_charge_at`
          : n.type === 'UNREG'
            ? sql`null`
            : sql`subscriptions.next_charge_at`;
      const applied = await rows(sql`
        insert into subscriptions (app_id, mobile, status, started_at, ended_at, state_at,
          next_charge_at, last_charged_at)
        select ${n.appId}, ${n.mobile}, ${status}, ${at}::timestamptz, ${endedAt}::timestamptz,
          ${at}::timestamptz, ${nextChargeAt}::timestamptz, ${lastChargedAt}::timestamptz
        where exists (select 1 from billing_apps where app_id = ${n.appId})
        on conflict (app_id, mobile) do update set
          status = excluded.status,
          started_at = ${startedAt},
          ended_at = ${n.type === 'UNREG' ? sql`excluded.ended_at` : sql`null`},
          state_at = excluded.state_at,
          next_charge_at = ${nextCharge},
          last_charged_at = coalesce(excluded.last_charged_at, subscriptions.last_charged_at)
        where subscriptions.state_at <= excluded.state_at
        returning id`);
      return applied.length > 0;
    },

    /** Active and lapsed subscriptions after `afterId`, a page at a time, in id order. */
    toReconcile: (afterId: number, limit: number) =>
      rows<ReconcileRow>(sql`
        select id, app_id as "appId", mobile, status, state_at::text as "stateKey" from subscriptions
        where status in ('active', 'lapsed') and id > ${afterId}
        order by id limit ${limit}`),

    /**
     * Sets the carrier's status on a row that has not changed since it was read (a notification
     * applied meanwhile wins). Answers whether it changed.
     */
    correct: async (r: ReconcileRow, status: CarrierStatus) =>
      (
        await rows(sql`
          update subscriptions set status = ${status}, state_at = now(),
            ended_at = ${status === 'ended' ? sql`now()` : sql`null`},
            next_charge_at = ${status === 'ended' ? sql`null` : sql`next_charge_at`}
          where id = ${r.id} and status = ${r.status}
            and state_at::text = ${r.stateKey}
          returning id`)
      ).length > 0,
  };
};

export type MembershipRepo = ReturnType<typeof membershipRepo>;
