/**
 * The shapes the charts draw: the check-ins contract's own (GET /api/checkins/summary).
 * - a day's mood: the mean of that day's check-ins, and how many;
 * - the mean mood per day of the week, 0 for Monday (count 0 when none fell on it);
 * - a tag's mean mood with and without it, and how many check-ins each side holds.
 */
export type { CheckinDay as DayMood, TagMood as TagPattern, WeekdayMood } from '../../api/gen/model';
