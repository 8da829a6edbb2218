import { memo } from 'react';
import { daysInMonth, longDay, monthLabel, weekdayIndex, WEEKDAYS } from './dates';
import { ChartFrame } from './ChartFrame';
import { MOOD_COLORS, moodText, nearestMood } from './moodScale';
import type { DayMood } from './types';
import classes from './mood.module.css';

interface Props {
  /** 'YYYY-MM' */
  month: string;
  /** Moods of the days in that month that have a check-in (others are ignored). */
  days: DayMood[];
  /** 'YYYY-MM-DD', outlined more strongly. */
  today?: string;
}

const CELL = 44;
const GAP = 4;
const HEAD = 20;

/**
 * A month of moods, Monday first: a day with a check-in is filled in its mood's colour and carries
 * the mood's number, so colour is never the only sign; a day without one is an outline.
 */
export const MonthCalendar = memo(function MonthCalendar({ month, days, today }: Props) {
  const [year, m] = month.split('-').map(Number);
  const length = daysInMonth(year, m - 1);
  const offset = weekdayIndex(`${month}-01`);
  const byDay = new Map(days.filter((d) => d.date.startsWith(`${month}-`)).map((d) => [d.date, d.mood]));
  const weeks = Math.ceil((offset + length) / 7);
  const width = 7 * CELL + 6 * GAP;
  const height = HEAD + weeks * (CELL + GAP);
  const checked = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b));
  const summary =
    checked.length === 0
      ? `${monthLabel(month)}: no check-ins yet.`
      : `${monthLabel(month)}: you checked in on ${checked.length} ${checked.length === 1 ? 'day' : 'days'}.`;

  return (
    <ChartFrame
      summary={summary}
      table={{
        caption: `Moods in ${monthLabel(month)}`,
        head: ['Day', 'Mood'],
        rows: checked.map(([date, mood]) => [longDay(date), moodText(mood)]),
      }}
    >
      <svg aria-hidden viewBox={`0 0 ${width} ${height}`} className={classes.chart} style={{ maxWidth: 420 }} data-testid="month-calendar">
        {WEEKDAYS.map((w, i) => (
          <text key={w} x={i * (CELL + GAP) + CELL / 2} y={13} fontSize={11} textAnchor="middle" fill="currentColor">
            {w.slice(0, 3)}
          </text>
        ))}
        {Array.from({ length }, (_, i) => {
          const date = `${month}-${String(i + 1).padStart(2, '0')}`;
          const slot = offset + i;
          const x = (slot % 7) * (CELL + GAP);
          const y = HEAD + Math.floor(slot / 7) * (CELL + GAP);
          const mean = byDay.get(date);
          const mood = mean === undefined ? undefined : nearestMood(mean);
          const colors = mood ? MOOD_COLORS[mood] : undefined;
          return (
            <g key={date} data-date={date} data-mood={mood}>
              <rect
                x={x + 0.5}
                y={y + 0.5}
                width={CELL - 1}
                height={CELL - 1}
                rx={8}
                fill={colors?.fill ?? 'none'}
                stroke="currentColor"
                strokeOpacity={date === today ? 1 : 0.35}
                strokeWidth={date === today ? 2 : 1}
              />
              <text x={x + 6} y={y + 13} fontSize={10} fill={colors?.ink ?? 'currentColor'}>
                {i + 1}
              </text>
              {mood ? (
                <text x={x + CELL / 2} y={y + 34} fontSize={16} fontWeight={700} textAnchor="middle" fill={colors?.ink}>
                  {mood}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </ChartFrame>
  );
});
