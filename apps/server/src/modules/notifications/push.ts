import webpush from 'web-push';
import type { VapidKeys } from './vapid.ts';

/** What a browser's service worker shows (apps/web/public/sw.js reads exactly these fields). */
export interface PushMessage {
  title: string;
  body: string;
  /** Where tapping it goes: /details/{storyId}/{episode}/. */
  url: string;
}

/** One browser that allowed Web Push: its push service address and its encryption keys. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** 'gone': the push service says the subscription no longer exists (404/410): forget it. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export interface PushSender {
  publicKey: string;
  /** Encrypts and sends one message; never throws (a push is a courtesy, not a promise). */
  send(target: PushTarget, message: PushMessage, opts?: { topic?: string }): Promise<PushOutcome>;
}

/**
 * The browsers' push services. In production the server only ever POSTs to these, so a
 * subscription cannot turn it into a client for some other https host.
 */
const PUSH_SERVICE_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^android\.googleapis\.com$/,
  /(^|\.)push\.services\.mozilla\.com$/,
  /(^|\.)notify\.windows\.com$/,
  /(^|\.)push\.apple\.com$/,
];

/** True for an https address of a known browser push service. */
export const isKnownPushService = (endpoint: string): boolean => {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname));
  } catch {
    return false;
  }
};

/** A new episode is still news for a day; a phone offline longer than that does not need it. */
const TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 5_000;

/**
 * Web Push through the `web-push` library: it encrypts (aes128gcm) and signs (VAPID); we send
 * the request with fetch, which speaks plain http to the local push service the tests run and
 * takes a timeout. `allowHttp` is false in production: real push services are https only.
 */
export function webPushSender(
  keys: VapidKeys,
  opts: { allowHttp: boolean; onError?: (message: string) => void },
): PushSender {
  const report = opts.onError ?? ((message: string) => console.error(`Web Push: ${message}`));
  return {
    publicKey: keys.publicKey,
    async send(target, message, sendOpts = {}) {
      if (!opts.allowHttp && !isKnownPushService(target.endpoint)) return 'gone';
      let details: webpush.RequestDetails;
      try {
        details = webpush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          JSON.stringify(message),
          {
            TTL: TTL_SECONDS,
            vapidDetails: keys,
            contentEncoding: 'aes128gcm',
            // A newer push for the same story replaces one the phone has not received yet.
            ...(sendOpts.topic ? { topic: sendOpts.topic } : {}),
          },
        );
      } catch (err) {
        // Keys the browser gave that do not make a P-256 point: that subscription cannot work.
        report(`bad subscription keys (${err instanceof Error ? err.message : String(err)})`);
        return 'gone';
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers))
        if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
      try {
        const res = await fetch(details.endpoint, {
          method: 'POST',
          headers,
          body: details.body ? new Uint8Array(details.body) : null,
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await res.body?.cancel().catch(() => {});
        if (res.status === 404 || res.status === 410) return 'gone';
        if (res.status >= 200 && res.status < 300) return 'sent';
        report(`${new URL(details.endpoint).host} answered ${res.status}`);
        return 'failed';
      } catch (err) {
        report(
          `${new URL(details.endpoint).host}: ${err instanceof Error ? err.message : String(err)}`,
        );
        return 'failed';
      }
    },
  };
}
