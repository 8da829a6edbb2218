import { Text } from '@mantine/core';
import type { EmotionCount } from '../../api/gen/model';

interface Props {
  emotions: EmotionCount[];
}

const BAR_HEIGHT = 18;
const GAP = 8;
const LABEL_WIDTH = 96;
const CHART_WIDTH = 320;

/**
 * A small horizontal bar chart of how often each feeling came up in the week. Drawn as SVG
 * so it needs no chart library; the numbers are also in the accessible label.
 */
export function EmotionChart({ emotions }: Props) {
  if (emotions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No feelings were noted in finished conversations this week.
      </Text>
    );
  }
  const max = Math.max(...emotions.map((e) => e.count), 1);
  const height = emotions.length * (BAR_HEIGHT + GAP);
  const label = emotions.map((e) => `${e.emotion}: ${e.count}`).join(', ');
  return (
    <svg
      role="img"
      aria-label={`Feelings this week — ${label}`}
      viewBox={`0 0 ${CHART_WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: CHART_WIDTH }}
    >
      {emotions.map((e, i) => {
        const y = i * (BAR_HEIGHT + GAP);
        const width = ((CHART_WIDTH - LABEL_WIDTH - 32) * e.count) / max;
        return (
          <g key={e.emotion} data-testid="emotion-bar">
            <text x={0} y={y + BAR_HEIGHT - 4} fontSize={13} fill="currentColor">
              {e.emotion}
            </text>
            <rect
              x={LABEL_WIDTH}
              y={y}
              width={Math.max(width, 2)}
              height={BAR_HEIGHT}
              rx={4}
              fill="var(--mantine-primary-color-filled)"
            />
            <text x={LABEL_WIDTH + width + 6} y={y + BAR_HEIGHT - 4} fontSize={13} fill="currentColor">
              {e.count}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
