import { shortCodeOf } from '@kathamala/domain';
import { callCarrier, type CarrierEndpoint } from '../billing/http.ts';
import { toSubscriberId } from '../billing/wire.ts';
import type { SmsAdapter } from './types.ts';

/**
 * SMS over the carrier's `sms/send`. Numbers are grouped by short code (77011 on Mobitel, 77100
 * elsewhere), one call per group; `requestRef` carries our ref: the carrier drops a number it
 * already delivered that ref to, so a retried call (after a crash or a timeout) sends nothing twice.
 */
export function ideamartSms(endpoint: CarrierEndpoint): SmsAdapter {
  return {
    async send({ to, text, appId, ref }) {
      const groups = new Map<string, string[]>();
      for (const mobile of to) {
        const code = shortCodeOf(mobile);
        groups.set(code, [...(groups.get(code) ?? []), mobile]);
      }
      for (const [sourceAddress, mobiles] of groups) {
        await callCarrier(endpoint, '/sms/send', {
          applicationId: appId,
          version: '1.0',
          destinationAddresses: mobiles.map(toSubscriberId),
          message: text,
          sourceAddress,
          // Ideamart reads this as the message encoding; the carrier sizes UCS-2 itself.
          encoding: '0',
          requestRef: ref,
        });
      }
    },
  };
}
