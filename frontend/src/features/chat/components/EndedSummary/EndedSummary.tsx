import { Alert, Button, Group, Loader, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Emotion } from '../../../../api/gen/model';
import { useStartNewChat } from '../../hooks/useStartNewChat';
import { EmotionChips } from '../EmotionChips/EmotionChips';

interface EndedSummaryProps {
  /** The tier includes summaries (and so the session's emotions): its entitlements say (spec §6). */
  showSummary: boolean;
  summary: string | null;
  emotions: readonly Emotion[];
}

/**
 * At the top of an ended chat opened later: its summary and emotions (where
 * the tier includes them) and "Continue in a new chat", which starts a new chat the
 * way the dashboard's Start New Chat does. Model output is rendered as text.
 */
export function EndedSummary({ showSummary, summary, emotions }: EndedSummaryProps) {
  const newChat = useStartNewChat();
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="ended-summary-title" style={{ flex: 'none' }}>
      <Stack gap="xs">
        <Title order={2} fz="sm" fw={600} id="ended-summary-title">
          This session has ended
        </Title>
        {showSummary ? (
          summary?.trim() ? (
            // A long summary scrolls on its own, so the thread below keeps its room.
            <ScrollArea.Autosize mah={160} type="auto">
              <Text size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="ended-summary">
                {summary}
              </Text>
            </ScrollArea.Autosize>
          ) : (
            <Text size="sm" c="dimmed" fs="italic">
              summarising…
            </Text>
          )
        ) : null}
        {showSummary && emotions.length > 0 ? (
          <EmotionChips emotions={emotions} size="sm" label="Emotions" />
        ) : null}
        <Group>
          <Button
            size="sm"
            onClick={newChat.start}
            disabled={newChat.creating}
            leftSection={
              newChat.creating ? <Loader size="xs" aria-label="Creating session" /> : <IconPlus size={16} aria-hidden />
            }
          >
            Continue in a new chat
          </Button>
        </Group>
        {newChat.error ? (
          <Alert color="clay" role="alert" py="xs">
            {newChat.error}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
