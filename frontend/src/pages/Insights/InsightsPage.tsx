import { Alert, Anchor, Button, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useListWeeklyReports } from '../../api/gen/insights/insights';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { InsightsTrend } from '../../features/insights/InsightsTrend';
import { useEntitlements } from '../../auth/useEntitlements';
import { WeekCard } from '../../features/insights/WeekCard';
import { emotionColors, lastWeeks, nextMonday } from '../../features/insights/weeks';

/** What Premium adds, for the roles without weekly reports (nothing is fetched for them). */
function PremiumOnly() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm" align="flex-start">
        <Group gap={6}>
          <IconLock size={16} aria-hidden />
          <Text fw={600}>Weekly insight reports are part of the Premium plan.</Text>
        </Group>
        <Text c="dimmed">
          Each Monday, Premium brings a gentle look back on your week: the feelings that came up, the themes that
          returned, and one idea for the week ahead.
        </Text>
        <Button component={Link} to="/about">
          Upgrade Now
        </Button>
      </Stack>
    </Card>
  );
}

/** Before the first report: when it comes, and what it will hold. */
function FirstReportOnItsWay() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="h4">
          Your first report is on its way
        </Title>
        <Text>Your first weekly report arrives after your first full week with Percolate, by {nextMonday()}.</Text>
        <Text c="dimmed">
          Every Monday, Percolate looks back on the conversations you finished the week before: the feelings that came
          up, the themes you kept returning to, and one idea for the week ahead. It appears here and in your inbox.
        </Text>
        <Button component={Link} to="/chat" variant="light">
          Start a conversation
        </Button>
      </Stack>
    </Card>
  );
}

/** The weekly reports of a Premium user: the eight-week trend, then each week, newest first. */
function Reports() {
  const reports = useListWeeklyReports();
  const soFar = reports.data?.find((r) => r.soFar);
  const weeks = useMemo(() => lastWeeks((reports.data ?? []).filter((r) => !r.soFar)), [reports.data]);
  const colors = useMemo(() => emotionColors(weeks), [weeks]);

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
      <Alert color="clay" title="Failed to load weekly reports" role="alert">
        <Button variant="light" color="clay" size="xs" mt="xs" onClick={() => void reports.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  const current = soFar && soFar.sessionCount > 0 ? <WeekCard report={soFar} colors={colors} /> : null;
  if (weeks.length === 0) {
    return (
      <Stack gap="lg">
        <FirstReportOnItsWay />
        {current}
      </Stack>
    );
  }
  const shown = weeks.flatMap((w) => (w.report ? [w.report] : [])).reverse();
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="trend-title">
        <Title order={2} fz="h4" id="trend-title" mb="sm">
          Your last eight weeks
        </Title>
        <InsightsTrend weeks={weeks} colors={colors} />
      </Card>
      {current}
      {shown.map((r) => (
        <WeekCard key={r.id} report={r} colors={colors} />
      ))}
    </Stack>
  );
}

/** /insights: the weekly insight reports (Premium), moved out of the profile's account settings. */
export function InsightsPage() {
  const { entitlements, pending } = useEntitlements();
  let body;
  if (pending) body = <PageLoader label="Loading your insights..." />;
  else if (entitlements.insights) body = <Reports />;
  else body = <PremiumOnly />;
  return (
    <Container size="sm" py="md">
      <Stack gap="lg">
        <div>
          <Title order={1} fz="h2">
            Your insights
          </Title>
          <Text c="dimmed">How your weeks have felt, and what kept coming up.</Text>
          <Anchor component={Link} to="/mood" size="sm">
            See your moods over time
          </Anchor>
        </div>
        {body}
      </Stack>
    </Container>
  );
}
