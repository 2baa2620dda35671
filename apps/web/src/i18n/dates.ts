import type { UiLang } from '@kathamala/domain';

/** Month names by interface language, January first. */
export const MONTHS: Record<UiLang, readonly string[]> = {
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  si: [
    'ජනවාරි',
    'පෙබරවාරි',
    'මාර්තු',
    'අප්‍රේල්',
    'මැයි',
    'ජූනි',
    'ජූලි',
    'අගෝස්තු',
    'සැප්තැම්බර්',
    'ඔක්තෝබර්',
    'නොවැම්බර්',
    'දෙසැම්බර්',
  ],
};

/** Sri Lanka keeps UTC+05:30 all year. */
const COLOMBO_OFFSET_MS = 5.5 * 60 * 60 * 1000;

/**
 * '28 November' / 'නොවැම්බර් 28' in Sri Lankan time. Written out here rather than with Intl:
 * browsers differ in their Sinhala locale data (some have none), and the server-rendered text
 * must match the browser's exactly for hydration.
 */
export function formatDayMonth(iso: string, lang: UiLang): string {
  const date = new Date(Date.parse(iso) + COLOMBO_OFFSET_MS);
  if (Number.isNaN(date.getTime())) return '';
  const day = date.getUTCDate();
  const month = MONTHS[lang][date.getUTCMonth()]!;
  return lang === 'si' ? `${month} ${day}` : `${day} ${month}`;
}
