import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Emotion, WeeklyReport } from '../../api/gen/model';
import { Swatch } from './InsightsTrend';
import { OTHER_COLOR, weekLabel } from './weeks';

interface Props {
  report: WeeklyReport;
  colors: Map<Emotion, string>;
}

/** One week's report (or this week so far, before its report on Monday): how many conversations, the feelings in their colours, the themes and the idea for the week ahead. */
export function WeekCard({ report, colors }: Props) {
  return (
    <Card withBorder radius="md" padding="lg" component="article">
      <Stack gap="sm">
        <div>
          <Title order={3} fz="h4">
            {report.soFar ? 'This week so far' : `Week of ${weekLabel(report.weekStart)}`}
          </Title>
          <Text size="sm" c="dimmed">
            {report.soFar ? `Since Monday, ${weekLabel(report.weekStart)}: ` : ''}
            {report.sessionCount === 1 ? '1 conversation finished' : `${report.sessionCount} conversations finished`}
          </Text>
        </div>
        {report.emotions.length > 0 ? (
          <Group gap="xs" aria-label="Feelings that came up">
            {report.emotions.map((e) => (
              <Group key={e.emotion} gap={6} wrap="nowrap">
                <Swatch color={colors.get(e.emotion) ?? OTHER_COLOR} />
                <Text size="sm">
                  {e.emotion} ({e.count})
                </Text>
              </Group>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No feelings were noted in finished conversations this week.
          </Text>
        )}
        {report.themes.length > 0 ? (
          <Group gap="xs" aria-label="Themes that returned">
            {report.themes.map((t) => (
              <Badge key={t} variant="light" tt="none">
                {t}
              </Badge>
            ))}
          </Group>
        ) : null}
        <Text>
          <strong>{report.soFar ? 'One idea for the rest of the week:' : 'One idea for the week ahead:'}</strong>{' '}
          {report.suggestion}
        </Text>
      </Stack>
    </Card>
  );
}
