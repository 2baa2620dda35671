import type { HealthRepo } from './repo.ts';

/** How long the database may take to answer `select 1` before the instance counts as unhealthy. */
export const HEALTH_TIMEOUT_MS = 1000;

export type Health = { ok: true } | { ok: false; reason: string };

/** Whether this instance can serve: its database answers within the timeout. */
export const healthService = (repo: HealthRepo, timeoutMs = HEALTH_TIMEOUT_MS) => ({
  async check(): Promise<Health> {
    let timer: NodeJS.Timeout | undefined;
    // A database that is down may hang (a pool waiting for a connection) rather than fail:
    // the probe answers within the timeout either way, and the late query is left to finish.
    const timeout = new Promise<Health>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` }),
        timeoutMs,
      );
    });
    const ping = repo.ping().then(
      (): Health => ({ ok: true }),
      (e: unknown): Health => ({ ok: false, reason: e instanceof Error ? e.message : String(e) }),
    );
    try {
      return await Promise.race([ping, timeout]);
    } finally {
      clearTimeout(timer);
    }
  },
});

export type HealthService = ReturnType<typeof healthService>;
