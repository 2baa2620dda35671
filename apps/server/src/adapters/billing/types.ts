/**
 * What the product needs from a carrier's subscription billing (Ideamart-style). Numbers are
 * normalized, 94XXXXXXXXX; the adapter adds and strips 'tel:' on the wire. Every method goes
 * over HTTP, to the carrier or to the simulator that speaks the same protocol.
 */
export interface BillingAdapter {
  /** Asks the carrier to send a subscription code to `mobile` for `appId`; answers its referenceNo. */
  requestOtp(input: { mobile: string; appId: string }): Promise<{ referenceNo: string }>;
  /**
   * Checks the code the reader typed. On success the carrier has registered the subscriber and
   * answers the number and the next charge; otherwise why not.
   */
  verifyOtp(input: { appId: string; referenceNo: string; otp: string }): Promise<OtpResult>;
  /** Ends the subscription at the carrier (UNREG); the carrier also notifies us. */
  unsubscribe(input: { mobile: string; appId: string }): Promise<void>;
  /** The carrier's word on one subscriber now (reconciliation). */
  status(input: { mobile: string; appId: string }): Promise<CarrierStatus>;
}

export type OtpResult =
  | { ok: true; mobile: string; nextChargeAt: Date | null }
  | { ok: false; reason: 'wrong' | 'expired' | 'used' | 'unknown' };

/** 'active' paid up, 'lapsed' a charge failed, 'ended' not subscribed. */
export type CarrierStatus = 'active' | 'lapsed' | 'ended';

/** A carrier failure (down, refused, malformed answer): callers answer 502/503, never 500. */
export class CarrierError extends Error {}

/**
 * A notification the carrier posts to our webhook, after the signature is checked and the
 * wire format parsed. `id` is the carrier's: a repeat of the same id changes nothing.
 */
export type CarrierNotification =
  | { id: string; type: 'REG' | 'UNREG'; appId: string; mobile: string; at: Date }
  | {
      id: string;
      type: 'CHARGE_OK';
      appId: string;
      mobile: string;
      at: Date;
      amount: number;
      nextChargeAt: Date;
    }
  | { id: string; type: 'CHARGE_FAIL'; appId: string; mobile: string; at: Date; reason: string }
  /** An SMS a phone sent to the app's short code (e.g. STOP). */
  | { id: string; type: 'SMS'; appId: string; mobile: string; at: Date; text: string };
