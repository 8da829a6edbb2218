import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** /error/401 (spec §2 and §8). */
export function UnauthorizedPage() {
  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="md" ta="center">
        <Text fz={64} fw={600} ff="heading" c="dimmed" aria-hidden>
          401
        </Text>
        <Title order={1}>Unauthorized Access</Title>
        <Text>You don&apos;t have permission to access this resource. Please log in to continue.</Text>
        <Group justify="center" mt="sm">
          <Button component={Link} to="/login">
            Sign In
          </Button>
          <Button component={Link} to="/" variant="default">
            Go Home
          </Button>
          <Button component={Link} to="/team#contact" variant="subtle">
            Contact Support
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
