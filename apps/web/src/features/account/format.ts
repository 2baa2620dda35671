import type { UiLang } from '@kathamala/domain';
import { formatDayMonth } from '../../i18n/dates.ts';

/** Sri Lanka keeps UTC+05:30 all year. */
const COLOMBO_OFFSET_MS = 5.5 * 60 * 60 * 1000;

/**
 * '28 November 2026' / '2026 නොවැම්බර් 28' in Sri Lankan time, the way a reader reads a billing
 * date; '' for a value that is not a date.
 */
export function formatFullDate(iso: string, lang: UiLang): string {
  const dayMonth = formatDayMonth(iso, lang);
  if (!dayMonth) return '';
  const year = new Date(Date.parse(iso) + COLOMBO_OFFSET_MS).getUTCFullYear();
  return lang === 'si' ? `${year} ${dayMonth}` : `${dayMonth} ${year}`;
}
