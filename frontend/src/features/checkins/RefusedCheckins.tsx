import { Alert, Button, Group, Stack, Text, type StackProps } from '@mantine/core';
import { longDay } from '../mood/dates';
import { localDate, moods } from './moods';
import { forget, keepForToday, type Kept } from './offlineQueue';
import { useRefusedCheckins } from './useKeptCheckins';

/**
 * The check-ins kept on this device that the server refused for good (most often: kept
 * offline for longer than the server takes a check-in back). A kept check-in is never dropped
 * unseen: each shows here, with the reason, until the user keeps it (sent again, dated today;
 * offered only when its day may be the reason) or discards it.
 */
export function RefusedCheckins({ userId, onKeep, ...props }: { userId: string; onKeep: (k: Kept) => void } & StackProps) {
  const refused = useRefusedCheckins(userId);
  if (refused.length === 0) return null;
  const today = localDate();
  return (
    <Stack gap="xs" {...props}>
      {refused.map((k) => {
        const { clientId, localDate: day, mood } = k.data;
        const label = moods.find((m) => m.value === mood)?.label.toLowerCase();
        return (
          <Alert key={clientId} color="clay" title="A check-in wasn't saved" role="alert">
            <Stack gap="xs">
              <Text size="sm">
                {day ? `Your check-in from ${longDay(day)} (${label})` : `Your check-in (${label})`} couldn't be saved:{' '}
                {k.refused}
              </Text>
              <Group gap="xs">
                {day !== today ? (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="clay"
                    onClick={() => {
                      if (keepForToday(userId, clientId)) onKeep(k);
                    }}
                  >
                    Save it for today
                  </Button>
                ) : null}
                <Button size="compact-sm" variant="subtle" color="clay" onClick={() => forget(userId, clientId)}>
                  Discard
                </Button>
              </Group>
            </Stack>
          </Alert>
        );
      })}
    </Stack>
  );
}
