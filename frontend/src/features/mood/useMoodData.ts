import { useQueries, useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { customFetch, isApiError } from '../../api/mutator';
import type { PastCheckIn } from './MoodSections';
import { addDays } from './dates';
import { onThisDayDates, useSessionTitlesOn } from './onThisDay';
import type { DayMood, TagPattern, WeekdayMood } from './types';

// TODO(contract): replaced by the generated check-ins hooks once the contract lands.
interface CheckinSummary {
  days: { date: string; mood: number; count: number }[];
  daysThisMonth: number;
  weekdays: { weekday: number; mean: number | null; count: number }[];
  tags?: TagPattern[];
}
interface Checkin {
  id: string;
  mood: number;
  tags: string[];
  emotions: string[];
  note?: string | null;
  createdAt: string;
}

export type Load<T> = { status: 'pending' } | { status: 'error' } | { status: 'locked' } | { status: 'ready'; value: T };

export interface MonthData {
  /** No check-in in the last 30 days or this month. */
  empty: boolean;
  days: DayMood[];
  daysThisMonth: number;
  weekdays: WeekdayMood[];
}

function load<T, R>(q: { isPending: boolean; isError: boolean; error: unknown; data?: T }, map: (t: T) => R): Load<R> {
  if (q.isPending) return { status: 'pending' };
  if (q.isError) return isApiError(q.error) && q.error.status === 403 ? { status: 'locked' } : { status: 'error' };
  return { status: 'ready', value: map(q.data as T) };
}

const summary = (days: 30 | 365) => () => customFetch<CheckinSummary>(`/api/checkins/summary?days=${days}`);

// Module-level selects: React Query keeps their results while the answer is the same, so the
// charts (memoised) draw again only when their data changes.
const toMonth = (s: CheckinSummary): MonthData => ({
  empty: s.days.length === 0 && s.daysThisMonth === 0,
  days: s.days.map((d) => ({ date: d.date, mood: d.mood })),
  daysThisMonth: s.daysThisMonth,
  weekdays: s.weekdays,
});
const toYear = (s: CheckinSummary) => ({ days: s.days.map((d) => ({ date: d.date, mood: d.mood })), tags: s.tags ?? [] });

/** The mood page's data: the 30-day summary, and the year and the tag patterns where the tier allows. */
export function useMoodData() {
  const month = useQuery({ queryKey: ['checkins', 'summary', 30], queryFn: summary(30), select: toMonth });
  const year = useQuery({ queryKey: ['checkins', 'summary', 365], queryFn: summary(365), select: toYear, retry: false });
  // The year (365 pixels) is drawn after the month, in a transition, so the first screen is not held up by it.
  const yearData = useDeferredValue(year.data);
  const yearState = { ...year, isPending: year.isPending || (year.isSuccess && yearData === undefined), data: yearData };
  return {
    month: load(month, (m) => m),
    year: load(yearState, (y) => y.days),
    tags: load(yearState, (y) => y.tags),
    retry: () => void month.refetch(),
  };
}

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** A month ago and a year ago: that day's check-ins and the titles of that day's sessions. */
export function useOnThisDay(today: string) {
  const { monthAgo, yearAgo } = onThisDayDates(today);
  const titles = useSessionTitlesOn([monthAgo, yearAgo]);
  const [month, year] = useQueries({
    queries: [monthAgo, yearAgo].map((day) => ({
      queryKey: ['checkins', 'day', day],
      queryFn: () =>
        customFetch<Checkin[]>(
          `/api/checkins?from=${new Date(`${day}T00:00:00`).toISOString()}&to=${new Date(`${addDays(day, 1)}T00:00:00`).toISOString()}&limit=50`,
        ),
    })),
  });
  const past = (label: string, day: string, q: typeof month) => ({
    label,
    day,
    pending: q.isPending || titles.isPending,
    checkIns: (q.data ?? []).map(
      (c): PastCheckIn => ({ ...c, time: time.format(new Date(c.createdAt)) }),
    ),
    sessionTitles: titles.data?.[day] ?? [],
  });
  return [past('A month ago', monthAgo, month), past('A year ago', yearAgo, year)];
}
