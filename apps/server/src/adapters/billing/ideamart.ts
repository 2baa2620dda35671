import { CarrierError, type BillingAdapter, type CarrierStatus, type OtpResult } from './types.ts';
import { callCarrier, type CarrierEndpoint } from './http.ts';
import { fromSubscriberId, STATUS, toSubscriberId, type WireSubscriptionStatus } from './wire.ts';

const OTP_FAILURES: Record<string, Extract<OtpResult, { ok: false }>['reason']> = {
  [STATUS.otpWrong]: 'wrong',
  [STATUS.otpExpired]: 'expired',
  [STATUS.otpUsed]: 'used',
  [STATUS.otpUnknown]: 'unknown',
};

const STATUS_OF: Record<WireSubscriptionStatus, CarrierStatus> = {
  REGISTERED: 'active',
  'PENDING CHARGE': 'active',
  CHARGE_FAILED: 'lapsed',
  UNREGISTERED: 'ended',
};

/** Subscription billing over the carrier's HTTP API (Ideamart's subscription and OTP calls). */
export function ideamartBilling(endpoint: CarrierEndpoint): BillingAdapter {
  return {
    async requestOtp({ mobile, appId }) {
      const a = await callCarrier(endpoint, '/subscription/otp/request', {
        applicationId: appId,
        subscriberId: toSubscriberId(mobile),
        applicationHash: 'kathamala',
        applicationMetaData: { client: 'WEBAPP' },
      });
      if (typeof a.referenceNo !== 'string' || !a.referenceNo)
        throw new CarrierError('The carrier sent no referenceNo for the OTP.');
      return { referenceNo: a.referenceNo };
    },

    async verifyOtp({ appId, referenceNo, otp }) {
      const a = await callCarrier(
        endpoint,
        '/subscription/otp/verify',
        { applicationId: appId, referenceNo, otp },
        Object.keys(OTP_FAILURES),
      );
      const failure = OTP_FAILURES[a.statusCode];
      if (failure) return { ok: false, reason: failure };
      const mobile = fromSubscriberId(a.subscriberId);
      if (!mobile || a.subscriptionStatus !== 'REGISTERED')
        throw new CarrierError('The carrier verified the OTP but did not register the subscriber.');
      const next = typeof a.nextChargeAt === 'string' ? new Date(a.nextChargeAt) : null;
      return {
        ok: true,
        mobile,
        nextChargeAt: next && !Number.isNaN(next.getTime()) ? next : null,
      };
    },

    async unsubscribe({ mobile, appId }) {
      // Already not registered is what we wanted: not a failure.
      await callCarrier(
        endpoint,
        '/subscription/send',
        { applicationId: appId, subscriberId: toSubscriberId(mobile), action: '0' },
        [STATUS.notRegistered],
      );
    },

    async status({ mobile, appId }) {
      const a = await callCarrier(endpoint, '/subscription/getStatus', {
        applicationId: appId,
        subscriberId: toSubscriberId(mobile),
      });
      const s = STATUS_OF[a.subscriptionStatus as WireSubscriptionStatus];
      if (!s)
        throw new CarrierError(
          `The carrier answered an unknown subscription status '${String(a.subscriptionStatus)}'.`,
        );
      return s;
    },
  };
}
