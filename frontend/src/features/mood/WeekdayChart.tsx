import { memo } from 'react';
import { WEEKDAYS } from './dates';
import { ChartFrame } from './ChartFrame';
import { formatMean, MOOD_COLORS, nearestMood } from './moodScale';
import type { WeekdayMood } from './types';
import classes from './mood.module.css';

interface Props {
  weekdays: WeekdayMood[];
}

const COL = 44;
const BAR = 28;
const PLOT = 100;
const TOP = 16;
const LABEL = 16;

const round = (n: number) => formatMean(Math.round(n * 10) / 10);

/**
 * Mean mood per day of the week, Monday first: a bar up to the mean (1 to 5) in the nearest
 * mood's colour, with the mean written above it.
 */
export const WeekdayChart = memo(function WeekdayChart({ weekdays }: Props) {
  const byDay = new Map(weekdays.map((w) => [w.weekday, w]));
  const known = weekdays.filter((w) => w.count > 0);
  const best = [...known].sort((a, b) => b.mood - a.mood)[0];
  const worst = [...known].sort((a, b) => a.mood - b.mood)[0];
  const summary =
    known.length < 2
      ? 'Check in on a few different days of the week to see how they compare.'
      : `On average your best day is ${WEEKDAYS[best.weekday]} (${round(best.mood)}) and your hardest is ${
          WEEKDAYS[worst.weekday]
        } (${round(worst.mood)}).`;
  const width = 7 * COL;
  const height = TOP + PLOT + LABEL;

  return (
    <ChartFrame
      summary={summary}
      table={{
        caption: 'Mean mood per day of the week',
        head: ['Day', 'Mean mood', 'Check-ins'],
        rows: WEEKDAYS.map((name, i) => {
          const w = byDay.get(i);
          return [name, w && w.count > 0 ? round(w.mood) : '—', String(w?.count ?? 0)];
        }),
      }}
    >
      <svg aria-hidden viewBox={`0 0 ${width} ${height}`} className={classes.chart} style={{ maxWidth: 420 }} data-testid="weekday-chart">
        <line x1={0} x2={width} y1={TOP + PLOT + 0.5} y2={TOP + PLOT + 0.5} stroke="currentColor" strokeOpacity={0.35} />
        {WEEKDAYS.map((name, i) => {
          const w = byDay.get(i);
          const mean = w && w.count > 0 ? w.mood : null;
          const h = mean === null ? 0 : (PLOT * mean) / 5;
          const cx = i * COL + COL / 2;
          return (
            <g key={name} data-weekday={name}>
              {mean !== null ? (
                <rect
                  x={cx - BAR / 2}
                  y={TOP + PLOT - h}
                  width={BAR}
                  height={h}
                  rx={3}
                  fill={MOOD_COLORS[nearestMood(mean)].fill}
                  stroke="currentColor"
                  strokeOpacity={0.5}
                />
              ) : null}
              <text x={cx} y={TOP + PLOT - h - 4} fontSize={11} textAnchor="middle" fill="currentColor">
                {mean === null ? '—' : round(mean)}
              </text>
              <text x={cx} y={height - 3} fontSize={11} textAnchor="middle" fill="currentColor">
                {name.slice(0, 3)}
              </text>
            </g>
          );
        })}
      </svg>
    </ChartFrame>
  );
});
