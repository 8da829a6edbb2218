import { memo } from 'react';
import { addDays, longDay, shortDay } from './dates';
import { ChartFrame } from './ChartFrame';
import { formatMean, MOOD_COLORS, MOOD_LABELS, MOODS, moodText, nearestMood } from './moodScale';
import type { DayMood } from './types';
import classes from './mood.module.css';

interface Props {
  /** The last day shown, 'YYYY-MM-DD'; the trend covers the 30 days up to it. */
  end: string;
  days: DayMood[];
}

const LEFT = 64;
const STEP = 11;
const ROW = 28;
const TOP = 10;
const BOTTOM = 20;

/**
 * The last 30 days as dots on five mood lines (each line named by its word), joined where days
 * follow each other. Each dot is drawn in its mood's colour, but its height says the mood too.
 */
export const MoodTrend = memo(function MoodTrend({ end, days }: Props) {
  const start = addDays(end, -29);
  const all = Array.from({ length: 30 }, (_, i) => addDays(start, i));
  const byDay = new Map(days.filter((d) => d.date >= start && d.date <= end).map((d) => [d.date, d.mood]));
  const width = LEFT + 30 * STEP;
  const height = TOP + 4 * ROW + BOTTOM;
  const y = (mood: number) => TOP + (5 - mood) * ROW;
  const x = (i: number) => LEFT + i * STEP + STEP / 2;

  // Runs of consecutive days with a check-in, each drawn as one line.
  const runs: string[] = [];
  let run: string[] = [];
  all.forEach((d, i) => {
    const m = byDay.get(d);
    if (m === undefined) {
      if (run.length > 1) runs.push(run.join(' '));
      run = [];
    } else run.push(`${x(i)},${y(m)}`);
  });
  if (run.length > 1) runs.push(run.join(' '));

  const moods = [...byDay.values()];
  const summary =
    moods.length === 0
      ? 'The last 30 days: no check-ins yet.'
      : `The last 30 days: ${moods.length} ${moods.length === 1 ? 'day' : 'days'} checked in, a mean mood of ${formatMean(
          Math.round((moods.reduce((a, b) => a + b, 0) / moods.length) * 10) / 10,
        )}, from ${formatMean(Math.min(...moods))} to ${formatMean(Math.max(...moods))}.`;

  return (
    <ChartFrame
      summary={summary}
      table={{
        caption: 'Your mood, day by day, over the last 30 days',
        head: ['Day', 'Mood'],
        rows: all.filter((d) => byDay.has(d)).map((d) => [longDay(d), moodText(byDay.get(d)!)]),
      }}
    >
      <svg aria-hidden viewBox={`0 0 ${width} ${height}`} className={classes.chart} style={{ maxWidth: 560 }} data-testid="mood-trend">
        {MOODS.map((m) => (
          <g key={m}>
            <line x1={LEFT - 4} x2={width} y1={y(m)} y2={y(m)} stroke="currentColor" strokeOpacity={0.15} />
            <text x={LEFT - 8} y={y(m) + 3.5} fontSize={11} textAnchor="end" fill="currentColor">
              {MOOD_LABELS[m]}
            </text>
          </g>
        ))}
        {runs.map((points) => (
          <polyline key={points} points={points} fill="none" stroke="currentColor" strokeOpacity={0.45} strokeWidth={1.5} />
        ))}
        {all.map((d, i) => {
          const m = byDay.get(d);
          if (m === undefined) return null;
          return (
            <circle
              key={d}
              data-date={d}
              cx={x(i)}
              cy={y(m)}
              r={4.5}
              fill={MOOD_COLORS[nearestMood(m)].fill}
              stroke="currentColor"
              strokeWidth={1}
            />
          );
        })}
        {[0, 15, 29].map((i) => (
          <text
            key={i}
            x={x(i)}
            y={height - 5}
            fontSize={11}
            textAnchor={i === 0 ? 'start' : i === 29 ? 'end' : 'middle'}
            fill="currentColor"
          >
            {shortDay(all[i])}
          </text>
        ))}
      </svg>
    </ChartFrame>
  );
});
