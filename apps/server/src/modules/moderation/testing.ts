import { expect } from 'vitest';
import { reviewPaths, type ReviewItem } from '@kathamala/domain';
import { bearer, type TestApp } from '../../test/helpers.ts';

/* What the review's tests share: requests, the queue's item for a target, and polling. */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A request as `token` (null: a visitor). */
export const sender =
  (t: () => TestApp) => (method: Method, url: string, token: string | null, payload?: object) =>
    t().app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload ? { payload } : {}),
    });

/** The open queue item of a target as `editor` reads it (through every page), or undefined. */
export async function queueItem(
  send: ReturnType<typeof sender>,
  editor: string,
  kind: string,
  id: number,
): Promise<ReviewItem | undefined> {
  for (let page = 1; ; page++) {
    const res = await send('GET', reviewPaths.queue(page), editor);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().object as { list: ReviewItem[]; hasNext: boolean };
    const found = o.list.find((i) => i.target.kind === kind && i.target.id === id);
    if (found || !o.hasNext) return found;
  }
}

/** Polls until `check` holds (a job's work), at most `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
