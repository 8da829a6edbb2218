/** The time zones the reminders offer, and the browser's own. */

/** The browser's IANA time zone, or UTC where it says none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone the browser knows, with current first when the browser's list lacks it (an alias). */
export function zoneOptions(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}
