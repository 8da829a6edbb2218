import type { Reminders } from '../../api/gen/model';

/** What a save says: when the next reminder goes, in the reminders' own time zone. */
export function nextDueText(r: Reminders): string {
  if (!r.nextDue) return 'Reminders are off.';
  const when = new Intl.DateTimeFormat(undefined, { weekday: 'long', hour: '2-digit', minute: '2-digit', timeZone: r.timeZone }).format(
    new Date(r.nextDue),
  );
  return `Saved. Your next reminder: ${when}.`;
}
