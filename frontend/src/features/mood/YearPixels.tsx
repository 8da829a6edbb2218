import { memo } from 'react';
import { addDays, daysInMonth, monthLabel, monthShortLabel } from './dates';
import { ChartFrame } from './ChartFrame';
import { formatMean, type Mood, MOOD_COLORS, nearestMood } from './moodScale';
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

/** The first day drawn: 364 days before `end`, so that the view holds 365 days counting both. */
const yearStart = (end: string) => addDays(end, -364);

/**
 * The months from `start`'s to `end`'s, oldest first, as 'YYYY-MM': twelve or thirteen (the same
 * month of two years, each in part), so that no day of the 365 is left out of the grid or the table.
 */
function months(start: string, end: string): string[] {
  const [y, m] = start.split('-').map(Number);
  const out: string[] = [];
  for (let i = 0; ; i++) {
    const month = new Date(Date.UTC(y, m - 1 + i, 1)).toISOString().slice(0, 7);
    if (month > end.slice(0, 7)) return out;
    out.push(month);
  }
}

/** A pixel's outline: a 2 px-rounded rectangle, as one subpath. */
function pixel(x: number, y: number): string {
  const w = COL - 4;
  const h = ROW - 2;
  const r = 2;
  return `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 -${r} ${r}h-${w - 2 * r}a${r} ${r} 0 0 1 -${r} -${r}v-${h - 2 * r}a${r} ${r} 0 0 1 ${r} -${r}z`;
}

interface Pixels {
  /** The outlines of the days of each mood, and of the days without a check-in ('none'). */
  d: string[];
  /** The days drawn in each path, space-separated (what the tests read). */
  days: string[];
}

/**
 * A year "in pixels": one column per month, one row per day of the month, each day with a
 * check-in filled in its mood's colour. The 365 days (today and the 364 before it, the same
 * window as the server's days=365 summary) are six paths (one per mood, one for the days without
 * a check-in), not 365 elements: the page draws and lays them out at once. Too small for
 * numbers, so the sentence and the table under it give each month's days and mean mood.
 */
export const YearPixels = memo(function YearPixels({ end, days }: Props) {
  const start = yearStart(end);
  const byDay = new Map(days.filter((d) => d.date >= start && d.date <= end).map((d) => [d.date, d.mood]));
  const cols = months(start, end);
  const width = LEFT + cols.length * COL;
  const height = HEAD + 31 * ROW;
  // Index 0 for the days without a check-in, 1–5 for the moods.
  const paths: Pixels[] = Array.from({ length: 6 }, () => ({ d: [], days: [] }));
  const rows = cols.map((month, c) => {
    const [y, m] = month.split('-').map(Number);
    let sum = 0;
    let count = 0;
    for (let i = 0; i < daysInMonth(y, m - 1); i++) {
      const date = `${month}-${String(i + 1).padStart(2, '0')}`;
      if (date < start || date > end) continue;
      const mean = byDay.get(date);
      const path = paths[mean === undefined ? 0 : nearestMood(mean)];
      path.d.push(pixel(LEFT + c * COL + 2, HEAD + i * ROW));
      path.days.push(date);
      if (mean !== undefined) {
        sum += mean;
        count++;
      }
    }
    return [monthLabel(month), String(count), count === 0 ? '—' : `${formatMean(Math.round((sum / count) * 10) / 10)}`];
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
        {paths.map((p, mood) =>
          p.d.length > 0 ? (
            <path
              key={mood}
              data-mood={mood || undefined}
              data-days={p.days.join(' ')}
              d={p.d.join('')}
              fill={mood ? MOOD_COLORS[mood as Mood].fill : 'none'}
              stroke="currentColor"
              strokeOpacity={mood ? 0.5 : 0.2}
              strokeWidth={0.5}
            />
          ) : null,
        )}
      </svg>
    </ChartFrame>
  );
});
