import type { Db } from '../../db/client.ts';
import type { CarrierNotification } from '../../adapters/billing/types.ts';

export type SubscriptionNotification = Exclude<CarrierNotification, { type: 'SMS' }>;
export type SmsNotification = Extract<CarrierNotification, { type: 'SMS' }>;
export type NotificationHandler<T> = (tx: Db, n: T) => Promise<void>;

/**
 * Where a verified carrier notification goes. The webhook applies it inside the transaction
 * that records its id, so a notification's effects and its "seen" mark commit together.
 */
export interface CarrierDispatch {
  /** REG, UNREG, CHARGE_OK, CHARGE_FAIL: the membership module's. */
  onSubscription(handler: NotificationHandler<SubscriptionNotification>): void;
  /** An SMS from a phone (STOP and the like): the alerts module's. */
  onSms(handler: NotificationHandler<SmsNotification>): void;
  /** Runs every handler of the notification's kind, in order, inside `tx`. */
  dispatch(tx: Db, n: CarrierNotification): Promise<void>;
}

/** An empty dispatcher; modules register their handlers at start-up. */
export function carrierDispatch(): CarrierDispatch {
  const subscription: NotificationHandler<SubscriptionNotification>[] = [];
  const sms: NotificationHandler<SmsNotification>[] = [];
  return {
    onSubscription: (h) => void subscription.push(h),
    onSms: (h) => void sms.push(h),
    async dispatch(tx, n) {
      if (n.type === 'SMS') for (const h of sms) await h(tx, n);
      else for (const h of subscription) await h(tx, n);
    },
  };
}
