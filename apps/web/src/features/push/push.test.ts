import { describe, expect, it } from 'vitest';
import { pushSupported, subscriptionBody, urlBase64ToUint8Array } from './push.ts';

describe('urlBase64ToUint8Array', () => {
  it('decodes URL-safe base64 without padding, as VAPID keys are written', () => {
    // 0xfb 0xff 0xbf is "+/+/" in plain base64 and "-_-_" URL-safe.
    expect([...urlBase64ToUint8Array('-_-_')]).toEqual([0xfb, 0xff, 0xbf]);
    expect([...urlBase64ToUint8Array('AQID')]).toEqual([1, 2, 3]);
    expect([...urlBase64ToUint8Array('AQ')]).toEqual([1]);
    expect([...urlBase64ToUint8Array('AQI')]).toEqual([1, 2]);
  });

  it('gives the 65 bytes of an uncompressed P-256 public key', () => {
    const key = Buffer.from([4, ...Array.from({ length: 64 }, (_, i) => i)]).toString('base64url');
    const bytes = urlBase64ToUint8Array(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
    expect(bytes[64]).toBe(63);
  });
});

describe('subscriptionBody', () => {
  it('keeps the endpoint and both keys', () => {
    expect(
      subscriptionBody({
        endpoint: 'https://push.example/abc',
        expirationTime: null,
        keys: { p256dh: 'p', auth: 'a' },
      }),
    ).toEqual({ endpoint: 'https://push.example/abc', keys: { p256dh: 'p', auth: 'a' } });
  });

  it('refuses an incomplete subscription', () => {
    expect(subscriptionBody({ endpoint: 'https://push.example/abc' })).toBeNull();
    expect(subscriptionBody({ keys: { p256dh: 'p', auth: 'a' } })).toBeNull();
  });
});

describe('pushSupported', () => {
  it('is false outside a browser', () => {
    expect(pushSupported()).toBe(false);
  });
});
