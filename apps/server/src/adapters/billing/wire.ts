import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CarrierNotification } from './types.ts';

/**
 * The carrier's wire protocol (Ideamart-style), shared by our HTTP adapters, the simulator that
 * plays the carrier, and the webhook that receives its notifications. One file, so the two ends
 * cannot drift apart.
 */

/** The carrier's success code; any other statusCode is a failure. */
export const STATUS_SUCCESS = 'S1000';

/**
 * Failure codes. Ideamart documents E1312 (request invalid) and E1313 (authentication failed);
 * the OTP ones are ours, one per reason an OTP can fail, so the adapter can tell them apart.
 */
export const STATUS = {
  invalidRequest: 'E1312',
  authFailed: 'E1313',
  unknownApp: 'E1302',
  otpWrong: 'E1850',
  otpExpired: 'E1851',
  otpUsed: 'E1852',
  otpUnknown: 'E1853',
  notRegistered: 'E1356',
} as const;

/** Subscription states as the carrier writes them. */
export type WireSubscriptionStatus =
  'REGISTERED' | 'UNREGISTERED' | 'CHARGE_FAILED' | 'PENDING CHARGE';

/** 'tel:94771234567' <-> '94771234567'. */
export const toSubscriberId = (mobile: string) => `tel:${mobile}`;
export const fromSubscriberId = (id: unknown): string | null =>
  typeof id === 'string' && /^tel:94\d{9}$/.test(id) ? id.slice(4) : null;

/** The header the carrier signs its notifications with. */
export const SIGNATURE_HEADER = 'x-carrier-signature';

/** A notification as it travels: Ideamart-like JSON. */
export interface WireNotification {
  version: '1.0';
  notificationId: string;
  type: CarrierNotification['type'];
  applicationId: string;
  subscriberId: string;
  /** ISO 8601 with milliseconds: REG and UNREG in the same second must keep their order. */
  timeStamp: string;
  amount?: number;
  nextChargeAt?: string;
  reason?: string;
  message?: string;
}

/** The wire form of a notification. */
export function toWire(n: CarrierNotification): WireNotification {
  const base = {
    version: '1.0' as const,
    notificationId: n.id,
    type: n.type,
    applicationId: n.appId,
    subscriberId: toSubscriberId(n.mobile),
    timeStamp: n.at.toISOString(),
  };
  switch (n.type) {
    case 'CHARGE_OK':
      return { ...base, amount: n.amount, nextChargeAt: n.nextChargeAt.toISOString() };
    case 'CHARGE_FAIL':
      return { ...base, reason: n.reason };
    case 'SMS':
      return { ...base, message: n.text };
    default:
      return base;
  }
}

const date = (v: unknown): Date | null => {
  if (typeof v !== 'string' || !/^\d{4}-\d\d-\d\dT/.test(v)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.length > 0 && v.length <= max ? v : null;

/** Parses a notification body; null when anything the product relies on is missing or wrong. */
export function parseNotification(body: unknown): CarrierNotification | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const w = body as Record<string, unknown>;
  const id = text(w.notificationId, 200);
  const appId = text(w.applicationId, 100);
  const mobile = fromSubscriberId(w.subscriberId);
  const at = date(w.timeStamp);
  if (!id || !appId || !mobile || !at) return null;
  const base = { id, appId, mobile, at };
  switch (w.type) {
    case 'REG':
    case 'UNREG':
      return { ...base, type: w.type };
    case 'CHARGE_OK': {
      const next = date(w.nextChargeAt);
      const amount = w.amount;
      if (!next || typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
        return null;
      return { ...base, type: 'CHARGE_OK', amount, nextChargeAt: next };
    }
    case 'CHARGE_FAIL':
      return { ...base, type: 'CHARGE_FAIL', reason: text(w.reason, 500) ?? 'unknown' };
    case 'SMS': {
      const message = typeof w.message === 'string' && w.message.length <= 2000 ? w.message : null;
      if (message === null) return null;
      return { ...base, type: 'SMS', text: message };
    }
    default:
      return null;
  }
}

const hmac = (secret: string, t: number, rawBody: string) =>
  createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');

/** The signature header value for `rawBody` sent at `t` (unix seconds). */
export function signNotification(secret: string, rawBody: string, t: number): string {
  return `t=${t},v1=${hmac(secret, t, rawBody)}`;
}

export type SignatureCheck = 'ok' | 'missing' | 'malformed' | 'stale' | 'forged';

/**
 * Checks a signature header: well formed, `t` within `toleranceSeconds` of `nowSeconds`, and
 * the HMAC equal in constant time.
 */
export function checkSignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureCheck {
  if (!header) return 'missing';
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const tRaw = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d{1,12}$/.test(tRaw) || !/^[0-9a-f]{64}$/.test(v1)) return 'malformed';
  const t = Number(tRaw);
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return 'stale';
  const expected = Buffer.from(hmac(secret, t, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) ? 'ok' : 'forged';
}
