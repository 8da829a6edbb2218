import { Container, Stack, Text, Title } from '@mantine/core';

interface PlaceholderPageProps {
  title: string;
}

/** Stand-in for a screen that a later issue builds. */
export function PlaceholderPage({ title }: PlaceholderPageProps) {
  return (
    <Container size="sm" py="xl">
      <Stack gap="sm">
        <Title order={1}>{title}</Title>
        <Text c="dimmed">This screen is coming soon.</Text>
      </Stack>
    </Container>
  );
}
