import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Emotion, WeekCheckins, WeeklyReport } from '../../api/gen/model';
import { moods } from '../checkins/moods';
import { Swatch } from './InsightsTrend';
import { OTHER_COLOR, weekLabel } from './weeks';

interface Props {
  report: WeeklyReport;
  colors: Map<Emotion, string>;
}

/** A mood as the check-in card names it, in a sentence ("very low"). */
function moodWord(mood: number): string {
  return (moods.find((m) => m.value === mood)?.label ?? '').toLowerCase();
}

/** The week's check-ins: how many, the mood range and the most frequent tags. A week without any says nothing. */
function Checkins({ checkins }: { checkins?: WeekCheckins }) {
  if (!checkins || checkins.count === 0) return null;
  const { count, lowestMood: low, highestMood: high, tags } = checkins;
  const range = low === high ? `mood ${moodWord(low ?? 3)}` : `mood from ${moodWord(low ?? 1)} to ${moodWord(high ?? 5)}`;
  return (
    <Stack gap={6}>
      <Text size="sm">
        {count === 1 ? '1 check-in' : `${count} check-ins`}, {range}
      </Text>
      {tags.length > 0 ? (
        <Group gap="xs" aria-label="What your check-ins were about">
          {tags.map((t) => (
            <Badge key={t.tag} variant="outline" color="gray" tt="none">
              {t.tag} ({t.count})
            </Badge>
          ))}
        </Group>
      ) : null}
    </Stack>
  );
}

/** One week's report (or this week so far, before its report on Monday): how many conversations, the feelings in their colours, the themes, the week's check-ins and the idea for the week ahead. */
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
        <Checkins checkins={report.checkins} />
        <Text>
          <strong>{report.soFar ? 'One idea for the rest of the week:' : 'One idea for the week ahead:'}</strong>{' '}
          {report.suggestion}
        </Text>
      </Stack>
    </Card>
  );
}
