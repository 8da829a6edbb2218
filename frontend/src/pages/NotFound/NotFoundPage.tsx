import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';

/** /error/404, where every unknown path lands (spec §2 and §8). */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="md" ta="center">
        <Text fz={64} fw={600} ff="heading" c="dimmed" aria-hidden>
          404
        </Text>
        <Title order={1}>Page Not Found</Title>
        <Text>Oops! The page you&apos;re looking for doesn&apos;t exist or has been moved.</Text>
        <Group justify="center" mt="sm">
          <Button component={Link} to="/">
            Go Home
          </Button>
          <Button variant="default" onClick={() => void navigate(-1)}>
            Go Back
          </Button>
          <Button component={Link} to="/team#contact" variant="subtle">
            Contact Support
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
