import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

/** public/sw.js run against a stand-in for the service worker global, as a browser would. */
const source = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../public/sw.js'),
  'utf8',
);

type Handler = (event: Record<string, unknown>) => void;

function loadWorker(windows: { url: string; focus: () => Promise<unknown> }[] = []) {
  const handlers = new Map<string, Handler>();
  const self = {
    location: { origin: 'https://kathamala.lk' },
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    skipWaiting: vi.fn(),
    registration: { showNotification: vi.fn(() => Promise.resolve()) },
    clients: {
      claim: vi.fn(() => Promise.resolve()),
      matchAll: vi.fn(() => Promise.resolve(windows)),
      openWindow: vi.fn(() => Promise.resolve(null)),
    },
  };
  new Function('self', 'URL', source)(self, URL);
  /** Fires an event and waits for what it asked the browser to wait for. */
  const fire = async (type: string, event: Record<string, unknown>) => {
    let waited: Promise<unknown> = Promise.resolve();
    handlers.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => (waited = p) });
    await waited;
  };
  return { self, fire };
}

const pushData = (value: unknown) => ({
  data: {
    json: () => (typeof value === 'string' ? JSON.parse(value) : value),
    text: () => String(value),
  },
});

describe('service worker (public/sw.js)', () => {
  it('shows a push as a notice with its title, body and address', async () => {
    const { self, fire } = loadWorker();
    await fire(
      'push',
      pushData({ title: 'NEW EPISODE', body: 'The Monsoon House, part 5', url: '/details/3/5/' }),
    );
    expect(self.registration.showNotification).toHaveBeenCalledWith(
      'NEW EPISODE',
      expect.objectContaining({
        body: 'The Monsoon House, part 5',
        data: { url: 'https://kathamala.lk/details/3/5/' },
      }),
    );
  });

  it('falls back to the site name and home for a push that is not JSON or points elsewhere', async () => {
    const { self, fire } = loadWorker();
    await fire('push', pushData('not json {'));
    expect(self.registration.showNotification).toHaveBeenLastCalledWith(
      'Kathamala',
      expect.objectContaining({ body: 'not json {', data: { url: 'https://kathamala.lk/' } }),
    );
    await fire('push', pushData({ title: 'x', url: 'https://evil.example/phish' }));
    expect(self.registration.showNotification).toHaveBeenLastCalledWith(
      'x',
      expect.objectContaining({ data: { url: 'https://kathamala.lk/' } }),
    );
  });

  it('tapping a notice focuses a window already at its address', async () => {
    const focus = vi.fn(() => Promise.resolve());
    const { self, fire } = loadWorker([{ url: 'https://kathamala.lk/details/3/5/', focus }]);
    const close = vi.fn();
    await fire('notificationclick', {
      notification: { close, data: { url: 'https://kathamala.lk/details/3/5/' } },
    });
    expect(close).toHaveBeenCalled();
    expect(focus).toHaveBeenCalled();
    expect(self.clients.openWindow).not.toHaveBeenCalled();
  });

  it('tapping a notice opens its address when no window shows it', async () => {
    const { self, fire } = loadWorker([
      { url: 'https://kathamala.lk/', focus: vi.fn(() => Promise.resolve()) },
    ]);
    await fire('notificationclick', {
      notification: { close: vi.fn(), data: { url: 'https://kathamala.lk/details/3/5/' } },
    });
    expect(self.clients.openWindow).toHaveBeenCalledWith('https://kathamala.lk/details/3/5/');
  });
});
