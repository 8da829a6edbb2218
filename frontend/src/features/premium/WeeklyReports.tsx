import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useListWeeklyReports } from '../../api/gen/insights/insights';
import { EmotionChart } from './EmotionChart';

function weekLabel(weekStart: string): string {
  const date = new Date(`${weekStart}T00:00:00Z`);
  return date.toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** The Premium weekly insight reports, newest first. */
export function WeeklyReports() {
  const reports = useListWeeklyReports();

  if (reports.isPending) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text>Loading your weekly reports...</Text>
      </Group>
    );
  }
  if (reports.isError) {
    return (
      <Alert color="red" title="Failed to load weekly reports">
        <Button variant="light" size="xs" mt="xs" onClick={() => void reports.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (reports.data.length === 0) {
    return <Text c="dimmed">Your first weekly report arrives after your first full week with Percolate.</Text>;
  }
  return (
    <Stack gap="md">
      {reports.data.map((r) => (
        <Card key={r.id} withBorder radius="md" padding="lg" component="article">
          <Title order={4}>Week of {weekLabel(r.weekStart)}</Title>
          <Text size="sm" c="dimmed" mb="sm">
            {r.sessionCount === 1 ? '1 conversation finished' : `${r.sessionCount} conversations finished`}
          </Text>
          <EmotionChart emotions={r.emotions} />
          {r.themes.length > 0 && (
            <Group gap="xs" mt="sm" aria-label="Themes that returned">
              {r.themes.map((t) => (
                <Badge key={t} variant="light">
                  {t}
                </Badge>
              ))}
            </Group>
          )}
          <Text mt="sm">
            <strong>One idea for the week ahead:</strong> {r.suggestion}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}
