import { useGetCheckinSummary, useListCheckins } from '../../api/gen/checkins/checkins';
import type { CheckinSummary } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import type { PastCheckIn } from './MoodSections';
import { onThisDayDates, useSessionTitlesOn } from './onThisDay';
import type { DayMood, WeekdayMood } from './types';

export type Load<T> = { status: 'pending' } | { status: 'error' } | { status: 'locked' } | { status: 'ready'; value: T };

export interface MonthData {
  /** No check-in in the last 30 days or this month. */
  empty: boolean;
  days: DayMood[];
  daysThisMonth: number;
  weekdays: WeekdayMood[];
}

/** A query's state as the page shows it: a 403 is a view the tier does not include, not an error. */
function load<T, R>(q: { isPending: boolean; isError: boolean; error: unknown; data?: T }, map: (t: T) => R): Load<R> {
  if (q.isPending) return { status: 'pending' };
  if (q.isError) return isApiError(q.error) && q.error.status === 403 ? { status: 'locked' } : { status: 'error' };
  return { status: 'ready', value: map(q.data as T) };
}

// Module-level selects: React Query keeps their results while the answer is the same, so the
// charts (memoised) draw again only when their data changes.
const toMonth = (s: CheckinSummary): MonthData => ({
  empty: s.perDay.length === 0 && s.daysThisMonth === 0,
  days: s.perDay,
  daysThisMonth: s.daysThisMonth,
  weekdays: s.weekdays,
});
const toYear = (s: CheckinSummary) => ({ days: s.perDay, tags: s.tags ?? [] });

/**
 * The mood page's data: the 30-day summary for everyone; the year and the tag patterns where
 * the tier allows (days=365 answers 403 for a free account: the page says so calmly).
 */
export function useMoodData(today: string) {
  // The summary ends on the reader's own today, not the server's.
  const month = useGetCheckinSummary({ days: 30, today }, { query: { select: toMonth } });
  const year = useGetCheckinSummary({ days: 365, today }, { query: { select: toYear, retry: false } });
  // The year is drawn with the sections under the month, after the month's first paint (MoodPage);
  // its 365 days are a few paths, so its answer is drawn as it comes, not deferred again.
  return {
    month: load(month, (m) => m),
    year: load(year, (y) => y.days),
    // The patterns over the year where there is one; a free account's 30-day summary has none.
    tags: load(year, (y) => y.tags),
    retry: () => void month.refetch(),
  };
}

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** A month ago and a year ago: that day's check-ins and the titles of that day's sessions. */
export function useOnThisDay(today: string) {
  const { monthAgo, yearAgo } = onThisDayDates(today);
  const titles = useSessionTitlesOn([monthAgo, yearAgo]);
  const month = useListCheckins({ from: monthAgo, to: monthAgo, limit: 50 });
  const year = useListCheckins({ from: yearAgo, to: yearAgo, limit: 50 });
  const past = (label: string, day: string, q: typeof month) => ({
    label,
    day,
    pending: q.isPending || titles.isPending,
    checkIns: (q.data ?? []).map(
      (c): PastCheckIn => ({
        id: c.id,
        mood: c.mood,
        time: time.format(new Date(c.createdAt)),
        emotions: c.emotions,
        tags: c.tags,
        note: c.note,
      }),
    ),
    sessionTitles: titles.data?.[day] ?? [],
  });
  return [past('A month ago', monthAgo, month), past('A year ago', yearAgo, year)];
}
