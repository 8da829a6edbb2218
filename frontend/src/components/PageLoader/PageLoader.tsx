import { Center, Loader, Stack, Text } from '@mantine/core';

interface PageLoaderProps {
  /** Shown under the spinner and announced to screen readers. */
  label?: string;
}

/** A centred spinner for whole-page waits (auth check, page chunk loading). */
export function PageLoader({ label }: PageLoaderProps) {
  return (
    <Center mih="50vh" p="xl">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden />
        {label ? <Text c="dimmed">{label}</Text> : null}
      </Stack>
    </Center>
  );
}
