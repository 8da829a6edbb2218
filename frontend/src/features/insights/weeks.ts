import type { Emotion, WeeklyReport } from '../../api/gen/model';

/** How many weeks the insights page shows. */
export const WEEKS_SHOWN = 8;

import { OKABE_ITO, OTHER_COLOR } from './palette';

export { OKABE_ITO, OTHER_COLOR };
export const OTHER_LABEL = 'other feelings';

/** One week of the trend: its Monday and its report, when there is one. */
export interface TrendWeek {
  weekStart: string;
  report?: WeeklyReport;
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The last eight weeks, oldest first, ending with the newest report's week (reports come
 * newest first). A week with no report keeps its place, so gaps show as gaps.
 */
export function lastWeeks(reports: WeeklyReport[]): TrendWeek[] {
  if (reports.length === 0) return [];
  const newest = reports.reduce((a, r) => (r.weekStart > a ? r.weekStart : a), reports[0].weekStart);
  const byWeek = new Map(reports.map((r) => [r.weekStart, r]));
  return Array.from({ length: WEEKS_SHOWN }, (_, i) => {
    const weekStart = addDays(newest, -7 * (WEEKS_SHOWN - 1 - i));
    return { weekStart, report: byWeek.get(weekStart) };
  });
}

/** A colour per feeling: the seven most frequent across the weeks shown get their own, the rest share grey. */
export function emotionColors(weeks: TrendWeek[]): Map<Emotion, string> {
  const totals = new Map<Emotion, number>();
  for (const w of weeks) {
    for (const e of w.report?.emotions ?? []) totals.set(e.emotion, (totals.get(e.emotion) ?? 0) + e.count);
  }
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([e]) => e);
  return new Map(ranked.map((e, i) => [e, OKABE_ITO[i] ?? OTHER_COLOR]));
}

/** "November 16" */
export function weekLabel(weekStart: string): string {
  return new Date(`${weekStart}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** "Nov 16" */
export function shortWeekLabel(weekStart: string): string {
  return new Date(`${weekStart}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The Monday (UTC) after today: when the next weekly report is made. */
export function nextMonday(today: Date = new Date()): string {
  const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  const daysToMonday = ((8 - d.getUTCDay()) % 7) || 7;
  d.setUTCDate(d.getUTCDate() + daysToMonday);
  return d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
