import { Paper, Stack, Text, Title } from '@mantine/core';
import { useAuth } from '../../auth/AuthContext';
import { firstName, greetingFor, promptOfDay } from './glance';

/** Above the session grid: a greeting by local time and the journaling prompt of the day. */
export function DashboardGreeting({ now = new Date() }: { now?: Date }) {
  const { user } = useAuth();
  const name = firstName(user?.name);
  return (
    <Stack gap={6}>
      <Text fz="lg" fw={600} data-testid="greeting">
        {name ? `${greetingFor(now)}, ${name}` : greetingFor(now)}
      </Text>
      <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="prompt-of-the-day">
        <Title order={2} fz="xs" tt="uppercase" c="dimmed" fw={600} id="prompt-of-the-day">
          Today's prompt
        </Title>
        <Text size="sm" mt={4} data-testid="journal-prompt">
          {promptOfDay(now)}
        </Text>
      </Paper>
    </Stack>
  );
}
