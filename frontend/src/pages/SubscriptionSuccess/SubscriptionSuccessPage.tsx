import { Anchor, Button, Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';

/** Seconds before the page moves on to the dashboard (spec §9). */
export const REDIRECT_SECONDS = 10;

/** /subscription-success: the thank-you page after checkout. */
export function SubscriptionSuccessPage() {
  const navigate = useNavigate();
  const [left, setLeft] = useState(REDIRECT_SECONDS);

  useEffect(() => {
    const timer = window.setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    if (left === 0) void navigate('/dashboard', { replace: true });
  }, [left, navigate]);

  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" color="sage" aria-hidden>
          <IconCheck size={36} />
        </ThemeIcon>
        <Title order={1}>Thank You for Subscribing!</Title>
        <Text>Your subscription is active. Enjoy everything your new plan brings.</Text>
        <Text c="dimmed" role="status" aria-live="polite">
          Redirecting to your dashboard in {left} {left === 1 ? 'second' : 'seconds'}...
        </Text>
        <Button component={Link} to="/dashboard" size="md">
          Continue to Dashboard
        </Button>
        <Anchor component={Link} to="/profile">
          View your subscription in your profile
        </Anchor>
      </Stack>
    </Container>
  );
}
