import { CheckinTag, Emotion, type Mood } from '../../api/gen/model';

/** The five moods of the check-in card, from very low (1) to great (5). */
export const moods: { value: Mood; label: string }[] = [
  { value: 1, label: 'Very low' },
  { value: 2, label: 'Low' },
  { value: 3, label: 'Okay' },
  { value: 4, label: 'Good' },
  { value: 5, label: 'Great' },
];

/** The contract's tags and emotions, in its order. */
export const tags = Object.values(CheckinTag);
export const emotions = Object.values(Emotion);

/** The contract's bounds (CheckinRequest). */
export const MAX_EMOTIONS = 5;
export const MAX_TAGS = 8;
export const MAX_NOTE = 500;

/** How long Undo stays on the card after a check-in is saved. */
export const UNDO_MS = 8000;

/** A label as the card shows it: "alone time" → "Alone time". */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
