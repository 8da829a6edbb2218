import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconCalendarHeart } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The dashboard's door to /mood (its charts load only there). */
export function MoodCard() {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="mood-card-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="h4" id="mood-card-title">
          Your moods
        </Title>
        <Text size="sm" c="dimmed">
          Your check-ins over time: a calendar of your moods, how the last 30 days have gone, and what goes with your
          better days.
        </Text>
        <Button component={Link} to="/mood" variant="light" leftSection={<IconCalendarHeart size={16} aria-hidden />}>
          See your moods
        </Button>
      </Stack>
    </Card>
  );
}
