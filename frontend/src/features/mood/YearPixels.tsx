import { memo } from 'react';
import { addDays, daysInMonth, monthLabel, monthShortLabel } from './dates';
import { ChartFrame } from './ChartFrame';
import { formatMean, MOOD_COLORS, MOOD_LABELS, nearestMood } from './moodScale';
import type { DayMood } from './types';
import classes from './mood.module.css';

interface Props {
  /** The last day shown, 'YYYY-MM-DD'; the view covers the 365 days up to it. */
  end: string;
  days: DayMood[];
}

const COL = 26;
const ROW = 11;
const LEFT = 18;
const HEAD = 14;

/** The twelve months up to `end`'s, oldest first, as 'YYYY-MM'. */
function months(end: string): string[] {
  const [y, m] = end.split('-').map(Number);
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 12 + i, 1));
    return d.toISOString().slice(0, 7);
  });
}

/**
 * A year "in pixels": one column per month, one row per day of the month, each day with a
 * check-in filled in its mood's colour. Too small for numbers, so each pixel names its day and
 * mood on hover, and the table under it gives each month's days and mean mood.
 */
export const YearPixels = memo(function YearPixels({ end, days }: Props) {
  const start = addDays(end, -364);
  const byDay = new Map(days.filter((d) => d.date >= start && d.date <= end).map((d) => [d.date, d.mood]));
  const cols = months(end);
  const width = LEFT + cols.length * COL;
  const height = HEAD + 31 * ROW;
  const rows = cols.map((month) => {
    const moods = [...byDay.entries()].filter(([d]) => d.startsWith(`${month}-`)).map(([, m]) => m);
    const mean = moods.length ? moods.reduce((a, b) => a + b, 0) / moods.length : null;
    return [monthLabel(month), String(moods.length), mean === null ? '—' : `${formatMean(Math.round(mean * 10) / 10)}`];
  });
  const total = byDay.size;

  return (
    <ChartFrame
      summary={`The last 365 days: you checked in on ${total} ${total === 1 ? 'day' : 'days'}.`}
      table={{ caption: 'Your year, month by month', head: ['Month', 'Days checked in', 'Mean mood'], rows }}
    >
      <svg aria-hidden viewBox={`0 0 ${width} ${height}`} className={classes.chart} style={{ maxWidth: 460 }} data-testid="year-pixels">
        {cols.map((month, c) => (
          <text key={month} x={LEFT + c * COL + COL / 2} y={10} fontSize={9} textAnchor="middle" fill="currentColor">
            {monthShortLabel(month).slice(0, 3)}
          </text>
        ))}
        {[1, 10, 20, 31].map((d) => (
          <text key={d} x={LEFT - 4} y={HEAD + (d - 1) * ROW + 8} fontSize={8} textAnchor="end" fill="currentColor">
            {d}
          </text>
        ))}
        {cols.map((month, c) => {
          const [y, m] = month.split('-').map(Number);
          return Array.from({ length: daysInMonth(y, m - 1) }, (_, i) => {
            const date = `${month}-${String(i + 1).padStart(2, '0')}`;
            if (date < start || date > end) return null;
            const mean = byDay.get(date);
            const mood = mean === undefined ? undefined : nearestMood(mean);
            return (
              <rect
                key={date}
                data-date={date}
                data-mood={mood}
                x={LEFT + c * COL + 2}
                y={HEAD + i * ROW}
                width={COL - 4}
                height={ROW - 2}
                rx={2}
                fill={mood ? MOOD_COLORS[mood].fill : 'none'}
                stroke="currentColor"
                strokeOpacity={mood ? 0.5 : 0.2}
                strokeWidth={0.5}
              >
                <title>{mood ? `${date}: ${mood} ${MOOD_LABELS[mood]}` : `${date}: no check-in`}</title>
              </rect>
            );
          });
        })}
      </svg>
    </ChartFrame>
  );
});
