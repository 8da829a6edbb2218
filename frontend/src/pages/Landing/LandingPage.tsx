import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function LandingPage() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md" align="flex-start">
        <Title order={1}>Find Clarity with Percolate</Title>
        <Text size="lg">
          A quiet place to think out loud. Talk things through, write them down, and let your
          thoughts settle.
        </Text>
        <Text c="dimmed">The full landing page is coming soon.</Text>
        <Button component={Link} to="/chat" size="md">
          Try the AI
        </Button>
      </Stack>
    </Container>
  );
}
