import { randomBytes } from 'node:crypto';
import {
  FEE_RUPEES_PER_MONTH,
  MEMBERSHIP,
  MEMBERSHIP_MESSAGES,
  ResultCode,
  maskMobile,
  normalizeMobile,
  type MembershipDetails,
  type SubscribeAnswer,
  type SubscribeBody,
  type VerifyBody,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { AppError, conflict, invalid, notFound } from '../../errors.ts';
import {
  CarrierError,
  type BillingAdapter,
  type CarrierStatus,
} from '../../adapters/billing/types.ts';
import type { SubscriptionNotification } from '../carrier/dispatch.ts';
import { membershipRepo, type CodeRow } from './repo.ts';

export interface MembershipDeps {
  db: Db;
  billing: BillingAdapter;
}

/** Subscriptions the reconciliation reads per round. */
const RECONCILE_PAGE = 200;

const iso = (d: Date | string) => new Date(d).toISOString();

/** A code that is no longer any use: the reader asks for a new one. */
const gone = (message: string) => new AppError(410, ResultCode.notFound, message);

/** The carrier failed us (down, refused, malformed): nothing changed on our side. */
const carrierDown = (message: string) => new AppError(503, ResultCode.internal, message);

const tooMany = (message: string) => new AppError(429, ResultCode.tooManyRequests, message);

/** '12 minutes', '1 minute', '40 seconds': how long until the next code may be asked for. */
const waitText = (seconds: number) => {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

const codeUnknown = () =>
  notFound('We could not find that subscription code. Please ask for a new one.');
const codeUsed = () =>
  conflict('That subscription code has already been used. Please ask for a new one.');
const codeExpired = () => gone('That subscription code has expired. Please ask for a new one.');
const codeDead = () =>
  gone(
    `That subscription code was entered wrongly ${MEMBERSHIP.codeMaxTries} times, so it no longer works. Please ask for a new one.`,
  );

/** Why a code cannot be tried, or null when it can. */
const refusal = (row: CodeRow): AppError | null =>
  row.consumed
    ? codeUsed()
    : row.expired
      ? codeExpired()
      : row.attempts >= MEMBERSHIP.codeMaxTries
        ? codeDead()
        : null;

/**
 * Membership by mobile carrier: codes by SMS, verification, the account's memberships, leaving,
 * the carrier's notifications and the daily reconciliation with the carrier (the membership issue).
 */
export function membershipService(deps: MembershipDeps) {
  const { db, billing } = deps;
  const repo = membershipRepo(db);

  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => work(tx as unknown as Db));

  return {
    /**
     * Sends a subscription code to the number for the app. The limits are counted in the
     * database before the carrier is asked: beyond them a 429, and no SMS goes out.
     */
    subscribe: async (viewer: Viewer, body: SubscribeBody): Promise<SubscribeAnswer> => {
      const mobile = normalizeMobile(body.mobile);
      if (!mobile) throw invalid('Please enter a Sri Lankan mobile number, like 077 123 4567.');
      const app = await repo.app(body.appId);
      if (!app) throw notFound('We could not find that membership.');
      if (await repo.isActive(viewer.userId, app.appId))
        throw conflict(`You are already a member of ${app.name}.`);

      const refId = randomBytes(18).toString('base64url');
      await inTransaction(async (tx) => {
        const r = membershipRepo(tx);
        await r.lockRequests(viewer.userId, mobile);
        const byMobile = await r.recentForMobile(
          mobile,
          MEMBERSHIP.codesPerMobileWindowMinutes,
          MEMBERSHIP.codesPerMobile,
        );
        if (byMobile.count >= MEMBERSHIP.codesPerMobile)
          throw tooMany(
            `We have sent ${MEMBERSHIP.codesPerMobile} codes to this number in the last ${MEMBERSHIP.codesPerMobileWindowMinutes} minutes. Please try again in ${waitText(byMobile.waitSeconds)}.`,
          );
        const byAccount = await r.recentForAccount(
          viewer.userId,
          MEMBERSHIP.codesPerAccountWindowMinutes,
          MEMBERSHIP.codesPerAccount,
        );
        if (byAccount.count >= MEMBERSHIP.codesPerAccount)
          throw tooMany(
            `You have asked for ${MEMBERSHIP.codesPerAccount} codes in the last ${MEMBERSHIP.codesPerAccountWindowMinutes} minutes. Please try again in ${waitText(byAccount.waitSeconds)}.`,
          );
        // Reserved inside the lock, so a request waiting on it counts this one.
        await r.reserveCode({
          refId,
          userId: viewer.userId,
          appId: app.appId,
          mobile,
          ttlMinutes: MEMBERSHIP.codeTtlMinutes,
          storyId: body.storyId ?? null,
        });
      });

      // The carrier is asked outside any transaction: a slow carrier holds no lock or connection.
      try {
        const { referenceNo } = await billing.requestOtp({ mobile, appId: app.appId });
        await repo.setCarrierRef(refId, referenceNo);
      } catch (err) {
        await repo.dropCode(refId);
        if (err instanceof CarrierError) throw carrierDown(MEMBERSHIP_MESSAGES.subscribeFailed);
        throw err;
      }
      return { refId, mobile: maskMobile(mobile), expiresInMinutes: MEMBERSHIP.codeTtlMinutes };
    },

    /**
     * Checks the code the reader typed with the carrier. The try is counted before the carrier
     * is asked, so parallel guesses cannot exceed the limit. On success the number's
     * subscription becomes this account's and active.
     */
    verify: async (viewer: Viewer, body: VerifyBody) => {
      const code = body.mfaCode.replace(/\s+/g, '');
      if (!code) throw invalid(MEMBERSHIP_MESSAGES.codeRequired);
      if (!new RegExp(`^\\d{${MEMBERSHIP.codeDigits}}$`).test(code))
        throw invalid(
          `The subscription code is the ${MEMBERSHIP.codeDigits} digits in the SMS we sent you.`,
        );
      // Someone else's refId answers exactly as an unknown one: it never says it exists.
      const row = await repo.code(body.refId, viewer.userId);
      if (!row) throw codeUnknown();
      if (row.appId !== body.appId)
        throw invalid('That subscription code was sent for another membership.');
      const refused = refusal(row);
      if (refused) throw refused;

      const tries = await repo.countTry(row.refId, MEMBERSHIP.codeMaxTries);
      if (tries === null) {
        // Another request used, killed or outlived it since we looked.
        const now = await repo.code(body.refId, viewer.userId);
        throw (now && refusal(now)) ?? codeDead();
      }

      let result;
      try {
        result = await billing.verifyOtp({
          appId: row.appId,
          referenceNo: row.carrierRef,
          otp: code,
        });
      } catch (err) {
        if (err instanceof CarrierError) {
          // The carrier never judged this try: it does not count.
          await repo.refundTry(row.refId);
          throw carrierDown(MEMBERSHIP_MESSAGES.subscribeFailed);
        }
        throw err;
      }
      if (!result.ok) {
        switch (result.reason) {
          case 'wrong': {
            const left = MEMBERSHIP.codeMaxTries - tries;
            throw invalid(
              left > 0
                ? `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`
                : 'That code is not right, and it cannot be tried again. Please ask for a new one.',
            );
          }
          case 'expired':
            throw codeExpired();
          case 'used':
            throw codeUsed();
          default:
            throw gone('Your mobile carrier no longer knows that code. Please ask for a new one.');
        }
      }
      if (result.mobile !== row.mobile)
        // The carrier registered another number than the one the code went to: trust neither.
        throw carrierDown(MEMBERSHIP_MESSAGES.subscribeFailed);

      await inTransaction(async (tx) => {
        const r = membershipRepo(tx);
        if (!(await r.consume(row.refId))) throw codeUsed();
        // Before activate: it looks at whether the number was already this account's member.
        await r.recordJoin({
          userId: viewer.userId,
          appId: row.appId,
          mobile: row.mobile,
          storyId: row.storyId,
        });
        await r.activate({
          userId: viewer.userId,
          appId: row.appId,
          mobile: row.mobile,
          nextChargeAt: result.nextChargeAt,
        });
      });
      return { subscribed: true as const, appId: row.appId };
    },

    /** The account's memberships, newest first: app, masked number, since, status, next charge, fee. */
    details: async (viewer: Viewer): Promise<MembershipDetails> => ({
      memberships: (await repo.memberships(viewer.userId)).map((m) => ({
        appId: m.appId,
        name: m.name,
        keyword: m.keyword,
        mobile: maskMobile(m.mobile),
        since: iso(m.startedAt),
        status: m.status,
        nextCharge: m.status === 'active' && m.nextChargeAt ? iso(m.nextChargeAt) : null,
        fee: { amount: FEE_RUPEES_PER_MONTH, currency: 'LKR' as const, period: 'month' as const },
      })),
    }),

    /** Leaves the app: UNREG at the carrier first, then the membership ends here. */
    unsubscribe: async (viewer: Viewer, appId: string) => {
      const found = await repo.leavable(viewer.userId, appId);
      if (!found.length) throw notFound('You have no membership there to leave.');
      try {
        for (const s of found) await billing.unsubscribe({ mobile: s.mobile, appId });
      } catch (err) {
        if (err instanceof CarrierError)
          throw carrierDown(
            'We are unable to end your membership at this moment. Please try again later.',
          );
        throw err;
      }
      await repo.end(found.map((s) => s.id));
      return { subscribed: false as const, appId };
    },

    /**
     * Applies a REG, UNREG or charge notification inside the webhook's transaction (the
     * dispatcher's handler). Unknown apps and notifications older than the row's state are ignored.
     */
    applyNotification: async (tx: Db, n: SubscriptionNotification) => {
      await membershipRepo(tx).applyNotification(n);
    },

    /**
     * Asks the carrier about every active or lapsed subscription and corrects ours where it
     * differs. A carrier failure for one number leaves that row as it is and goes on.
     */
    reconcile: async () => {
      const counts = { checked: 0, corrected: 0, failed: 0 };
      let after = 0;
      for (;;) {
        const page = await repo.toReconcile(after, RECONCILE_PAGE);
        for (const s of page) {
          counts.checked++;
          let status: CarrierStatus;
          try {
            status = await billing.status({ mobile: s.mobile, appId: s.appId });
          } catch (err) {
            if (!(err instanceof CarrierError)) throw err;
            counts.failed++;
            continue;
          }
          if (status !== s.status && (await repo.correct(s, status))) counts.corrected++;
        }
        if (page.length < RECONCILE_PAGE) return counts;
        after = page[page.length - 1]!.id;
      }
    },
  };
}

export type MembershipService = ReturnType<typeof membershipService>;
