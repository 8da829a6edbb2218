/**
 * Calendar days as 'YYYY-MM-DD' strings, worked on in UTC so that a day never shifts with the
 * reader's time zone (the server already answers in the user's days).
 */
const DAY_MS = 86_400_000;

export function parseDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export function dayString(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Today in the reader's own time zone. */
export function localToday(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export function addDays(day: string, n: number): string {
  return dayString(new Date(parseDay(day).getTime() + n * DAY_MS));
}

/** The same day n months earlier (or the month's last day when it is shorter). */
export function addMonths(day: string, n: number): string {
  const d = parseDay(day);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = daysInMonth(target.getUTCFullYear(), target.getUTCMonth());
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return dayString(target);
}

/** Days in a month (month 0–11). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** 0 for Monday … 6 for Sunday. */
export function weekdayIndex(day: string): number {
  return (parseDay(day).getUTCDay() + 6) % 7;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const long = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
const short = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const monthYear = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const monthShort = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short' });

/** "Sunday 29 November" */
export const longDay = (day: string) => long.format(parseDay(day));
/** "29 Nov" */
export const shortDay = (day: string) => short.format(parseDay(day));
/** "November 2026" for a 'YYYY-MM' month */
export const monthLabel = (month: string) => monthYear.format(parseDay(`${month}-01`));
/** "Nov" for a 'YYYY-MM' month */
export const monthShortLabel = (month: string) => monthShort.format(parseDay(`${month}-01`));
