import { Box, Group, Text } from '@mantine/core';
import type { Emotion } from '../../api/gen/model';
import { OTHER_COLOR, OTHER_LABEL, shortWeekLabel, type TrendWeek } from './weeks';

interface Props {
  weeks: TrendWeek[];
  colors: Map<Emotion, string>;
}

const COL = 40;
const BAR = 24;
const PLOT = 120;
const LABEL = 18;

/** The words a screen reader gets for one week of the trend. */
function weekText(w: TrendWeek): string {
  const label = shortWeekLabel(w.weekStart);
  if (!w.report) return `${label}: no report`;
  if (w.report.emotions.length === 0) return `${label}: no feelings noted`;
  return `${label}: ${w.report.emotions.map((e) => `${e.emotion} ${e.count}`).join(', ')}`;
}

/**
 * Eight weeks of feelings as stacked columns, oldest on the left, one Okabe–Ito colour per
 * feeling (thin gaps in the page colour keep neighbours apart). Drawn as SVG, so it needs no
 * chart library and scales to any width; the numbers are in its accessible name.
 */
export function InsightsTrend({ weeks, colors }: Props) {
  const max = Math.max(1, ...weeks.map((w) => (w.report?.emotions ?? []).reduce((n, e) => n + e.count, 0)));
  const legend = [...colors.entries()].filter(([, c]) => c !== OTHER_COLOR);
  const hasOther = [...colors.values()].includes(OTHER_COLOR);
  // Every column stacks its feelings in the same order (the key's), so a feeling keeps its place week to week.
  const rank = new Map([...colors.keys()].map((e, i) => [e, i]));
  const stacked = (w: TrendWeek) =>
    [...(w.report?.emotions ?? [])].sort((a, b) => (rank.get(a.emotion) ?? 99) - (rank.get(b.emotion) ?? 99));
  return (
    <Box>
      <svg
        role="img"
        aria-label={`Feelings over the last ${weeks.length} weeks — ${weeks.map(weekText).join('; ')}`}
        viewBox={`0 0 ${COL * weeks.length} ${PLOT + LABEL}`}
        width="100%"
        style={{ display: 'block', maxWidth: 560 }}
      >
        <line x1={0} x2={COL * weeks.length} y1={PLOT + 0.5} y2={PLOT + 0.5} stroke="currentColor" strokeOpacity={0.3} />
        {weeks.map((w, i) => {
          const x = i * COL + (COL - BAR) / 2;
          let y = PLOT;
          return (
            <g key={w.weekStart} data-testid="trend-week">
              {stacked(w).map((e) => {
                const h = (PLOT - 4) * (e.count / max);
                y -= h;
                return (
                  <rect
                    key={e.emotion}
                    data-emotion={e.emotion}
                    x={x}
                    y={y}
                    width={BAR}
                    height={h}
                    fill={colors.get(e.emotion) ?? OTHER_COLOR}
                    stroke="var(--mantine-color-body)"
                    strokeWidth={1}
                  />
                );
              })}
              <text x={i * COL + COL / 2} y={PLOT + 13} fontSize={9.5} textAnchor="middle" fill="currentColor">
                {shortWeekLabel(w.weekStart)}
              </text>
            </g>
          );
        })}
      </svg>
      <Group component="ul" gap="xs" mt="xs" p={0} style={{ listStyle: 'none' }} aria-label="Colour key">
        {legend.map(([emotion, color]) => (
          <Group component="li" key={emotion} gap={6} wrap="nowrap">
            <Swatch color={color} />
            <Text size="sm">{emotion}</Text>
          </Group>
        ))}
        {hasOther ? (
          <Group component="li" gap={6} wrap="nowrap">
            <Swatch color={OTHER_COLOR} />
            <Text size="sm">{OTHER_LABEL}</Text>
          </Group>
        ) : null}
      </Group>
    </Box>
  );
}

/** A small square of a feeling's colour. */
export function Swatch({ color }: { color: string }) {
  return (
    <Box
      aria-hidden
      w={12}
      h={12}
      style={{ flex: 'none', borderRadius: 3, background: color, outline: '1px solid var(--mantine-color-default-border)' }}
    />
  );
}
