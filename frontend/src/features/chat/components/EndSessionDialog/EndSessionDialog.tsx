import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useGetChatTakeaway } from '../../../../api/gen/chat/chat';
import type { ClosingFeeling } from '../../../../api/gen/model';

const FEELINGS: { value: ClosingFeeling; label: string }[] = [
  { value: 'better', label: 'Better' },
  { value: 'same', label: 'About the same' },
  { value: 'worse', label: 'Worse' },
];

interface EndSessionDialogProps {
  opened: boolean;
  sessionId: string;
  ending: boolean;
  /** Why the last try to end failed, shown in the dialog. */
  error?: string | null;
  onCancel: () => void;
  onConfirm: (feeling?: ClosingFeeling) => void;
}

/**
 * The closing moment of End Session: how the user feels now (optional), then Confirm ends the
 * session; Cancel, the close button and Escape keep the chat.
 */
export function EndSessionDialog({ opened, sessionId, ending, error, onCancel, onConfirm }: EndSessionDialogProps) {
  const [feeling, setFeeling] = useState<ClosingFeeling | undefined>();
  // One thing to take from the conversation, asked for when the dialog opens; the dialog never
  // waits for it.
  const takeaway = useGetChatTakeaway(sessionId, { query: { enabled: opened, staleTime: 0, retry: false } });
  const thing = takeaway.data?.takeaway;
  return (
    <Modal opened={opened} onClose={onCancel} title="End this session?" centered>
      <Stack gap="md">
        {thing ? (
          <Paper withBorder p="sm" radius="md" aria-labelledby="takeaway-label" component="section">
            <Text id="takeaway-label" size="sm" fw={600}>
              One thing to take with you
            </Text>
            <Text size="sm">{thing}</Text>
          </Paper>
        ) : null}
        <Text id="closing-feeling-label">How do you feel now?</Text>
        <Group gap="xs" role="group" aria-labelledby="closing-feeling-label">
          {FEELINGS.map((f) => (
            <Button
              key={f.value}
              variant={feeling === f.value ? 'filled' : 'default'}
              aria-pressed={feeling === f.value}
              onClick={() => setFeeling(feeling === f.value ? undefined : f.value)}
              size="sm"
            >
              {f.label}
            </Button>
          ))}
        </Group>
        <Text size="sm" c="dimmed">
          Optional, and only for you. Your conversation stays on your dashboard.
        </Text>
        {error ? (
          <Text role="alert" c="red.8" size="sm">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={ending}>
            Cancel
          </Button>
          <Button onClick={() => onConfirm(feeling)} loading={ending}>
            End Session
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
