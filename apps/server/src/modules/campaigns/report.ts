import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { FetchRefused, safeFetch, type SafeFetchOptions } from './safe-fetch.ts';

export const REPORT_FETCH_JOB = 'campaign.report.fetch';

/** Limits of one report fetch. */
export const REPORT_LIMITS = { maxBytes: 256 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

/** Where the development simulator serves report shapes, under the site's own origin. */
export const REPORT_SIMULATOR_PATH = '/dev/ad-metrics/';

export type ReportVerdict =
  | { status: 'accepted'; impressions: number; clicks: number; spend: number }
  | { status: 'refused'; reason: string };

const figure = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/**
 * SPEC.md 5: a report is accepted only with exactly one entry whose status is complete; any
 * other shape is refused with the reason.
 */
export function judgeReport(text: string): ReportVerdict {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 'refused', reason: 'The report is not JSON.' };
  }
  const entries = (body as { entries?: unknown })?.entries;
  if (!Array.isArray(entries))
    return { status: 'refused', reason: 'The report has no entries list.' };
  if (entries.length !== 1)
    return {
      status: 'refused',
      reason: `The report has ${entries.length} entries; exactly one is accepted.`,
    };
  const e = entries[0] as Record<string, unknown>;
  if (e?.status !== 'complete')
    return {
      status: 'refused',
      reason: `The report's entry has status ${JSON.stringify(e?.status ?? null)}; only complete is accepted.`,
    };
  const impressions = figure(e.impressions);
  const clicks = figure(e.clicks);
  const spend = figure(e.spend);
  if (impressions === null || clicks === null || spend === null)
    return {
      status: 'refused',
      reason: 'The report’s entry lacks impressions, clicks or spend as numbers of 0 or more.',
    };
  return { status: 'accepted', impressions, clicks, spend };
}

/** Fetches a campaign's report, judges it and records the verdict. */
export async function fetchReport(
  db: Db,
  campaignId: number,
  fetchOptions: Omit<SafeFetchOptions, keyof typeof REPORT_LIMITS>,
): Promise<ReportVerdict | null> {
  const { rows } = (await db.execute(
    sql`select report_url as url from campaigns where id = ${campaignId}`,
  )) as unknown as { rows: { url: string | null }[] };
  const url = rows[0]?.url;
  if (!url) return null;
  let verdict: ReportVerdict;
  try {
    verdict = judgeReport(await safeFetch(url, { ...fetchOptions, ...REPORT_LIMITS }));
  } catch (err) {
    if (!(err instanceof FetchRefused)) throw err;
    verdict = { status: 'refused', reason: err.message };
  }
  await db.execute(sql`insert into campaign_reports
      (campaign_id, url, status, reason, impressions, clicks, spend)
    values (${campaignId}, ${url}, ${verdict.status},
      ${verdict.status === 'refused' ? verdict.reason : null},
      ${verdict.status === 'accepted' ? Math.round(verdict.impressions) : null},
      ${verdict.status === 'accepted' ? Math.round(verdict.clicks) : null},
      ${verdict.status === 'accepted' ? verdict.spend : null})`);
  return verdict;
}

/** The report job's worker. */
export async function reportJobs(
  queue: JobQueue,
  db: Db,
  fetchOptions: Omit<SafeFetchOptions, keyof typeof REPORT_LIMITS>,
) {
  await queue.work<{ campaignId: number }>(REPORT_FETCH_JOB, async (job) => {
    await fetchReport(db, job.data.campaignId, fetchOptions);
  });
}

/** Report shapes the development simulator serves, by name. */
export const SIMULATED_REPORTS: Record<string, unknown> = {
  complete: { entries: [{ status: 'complete', impressions: 12500, clicks: 430, spend: 8750.5 }] },
  empty: { entries: [] },
  two: {
    entries: [
      { status: 'complete', impressions: 100, clicks: 1, spend: 10 },
      { status: 'complete', impressions: 200, clicks: 2, spend: 20 },
    ],
  },
  pending: { entries: [{ status: 'pending', impressions: 50, clicks: 0, spend: 0 }] },
};
