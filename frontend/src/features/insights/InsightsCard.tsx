import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useListWeeklyReports } from '../../api/gen/insights/insights';
import { weekLabel } from './weeks';

/** Last week's themes, at a glance (nothing while loading or when they fail to load). */
function LatestThemes() {
  const reports = useListWeeklyReports();
  const latest = reports.data?.find((r) => !r.soFar || r.sessionCount > 0);
  if (!latest) return null;
  const label = latest.soFar ? 'This week so far' : `Week of ${weekLabel(latest.weekStart)}`;
  return (
    <Text size="sm">
      {latest.themes.length > 0
        ? `${label}: ${latest.themes.join(' · ')}`
        : `Your report for the week of ${weekLabel(latest.weekStart)} is ready.`}
    </Text>
  );
}

/** The dashboard's door to /insights; it says what Premium adds for the other roles. */
export function InsightsCard({ premium }: { premium: boolean }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="insights-card-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="h4" id="insights-card-title">
          Your insights
        </Title>
        <Text size="sm" c="dimmed">
          {premium
            ? 'Your last eight weeks: the feelings that came up, the themes that returned, and one idea for the week ahead.'
            : 'Weekly insight reports — your feelings and themes over time — are part of the Premium plan.'}
        </Text>
        {premium ? <LatestThemes /> : null}
        <Button component={Link} to="/insights" variant="light" leftSection={<IconChartBar size={16} aria-hidden />}>
          Open your insights
        </Button>
      </Stack>
    </Card>
  );
}
