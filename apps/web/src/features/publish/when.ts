/**
 * Times as the author sees and types them: in this device's local time, numeric (the same in
 * English and Sinhala, and not dependent on a browser's Sinhala locale data).
 */

const pad = (n: number): string => String(n).padStart(2, '0');

/** A date-time input's value ('2026-11-22T10:30') for an ISO time, in local time. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The ISO time of a date-time input's value (read as local time); null when it is not one. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** '2026-11-22 10:30' in local time; '' for no time. */
export function formatWhen(iso: string | null | undefined): string {
  return toLocalInput(iso).replace('T', ' ');
}

/** '10:32' in local time. */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A default for the schedule input: the next whole hour, at least ten minutes away. */
export function nextHourInput(now = Date.now()): string {
  const d = new Date(now + 10 * 60_000);
  d.setMinutes(0, 0, 0);
  d.setHours(d.getHours() + 1);
  return toLocalInput(d.toISOString());
}
