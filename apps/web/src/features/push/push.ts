import { deletePushSubscription, fetchPushKey, savePushSubscription } from '../../api/social.ts';

/**
 * Web Push for new episodes. The service worker (/sw.js) is registered only when the reader turns
 * push on, never on a plain visit; turning it off unsubscribes the browser and tells the server.
 */

export const SERVICE_WORKER_URL = '/sw.js';

/** on: this browser is subscribed; off: it could be; denied: the reader blocked notifications. */
export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

/** The VAPID public key (URL-safe base64) as the bytes PushManager.subscribe wants. */
export function urlBase64ToUint8Array(base64Url: string): Uint8Array<ArrayBuffer> {
  const padding = '='.repeat((4 - (base64Url.length % 4)) % 4);
  const base64 = (base64Url + padding).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether this browser can do Web Push at all (not on the server, not in old browsers). */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

const currentSubscription = async (): Promise<PushSubscription | null> => {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
};

/** Where push stands in this browser now. */
export async function readPushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  try {
    return (await currentSubscription()) ? 'on' : 'off';
  } catch {
    return 'off';
  }
}

/** The subscription as the server keeps it (endpoint and the two keys). */
export const subscriptionBody = (
  subscription: PushSubscriptionJSON,
): { endpoint: string; keys: { p256dh: string; auth: string } } | null => {
  const { endpoint, keys } = subscription;
  if (!endpoint || !keys?.p256dh || !keys.auth) return null;
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
};

/**
 * Asks for permission, registers the service worker, subscribes with the server's key and saves
 * the subscription. Resolves with the new state; throws when the server or the browser fails.
 */
export async function enablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await fetchPushKey();
  const applicationServerKey = urlBase64ToUint8Array(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    // A subscription made with another key (the server's key changed) cannot be reused.
    const oldKey = subscription.options.applicationServerKey;
    if (oldKey && !sameBytes(new Uint8Array(oldKey), applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey,
  });
  const body = subscriptionBody(subscription.toJSON());
  if (!body) throw new Error('The browser gave an incomplete push subscription.');
  await savePushSubscription(body);
  return 'on';
}

/** Unsubscribes this browser and tells the server (the browser side ends even if that fails). */
export async function disablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const subscription = await currentSubscription().catch(() => null);
  if (subscription) {
    await deletePushSubscription(subscription.endpoint).catch(() => undefined);
    await subscription.unsubscribe().catch(() => false);
  }
  return Notification.permission === 'denied' ? 'denied' : 'off';
}

/**
 * Before logout: a shared phone must not keep getting the last reader's notices. Gives up after
 * a moment so logging out never hangs on it.
 */
export function disablePushBeforeLogout(limitMs = 1500): Promise<void> {
  if (!pushSupported()) return Promise.resolve();
  return Promise.race([
    disablePush().then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, limitMs)),
  ]).catch(() => undefined);
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);
