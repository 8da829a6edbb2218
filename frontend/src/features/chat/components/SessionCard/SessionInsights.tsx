import { Accordion, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useGetChatSession } from '../../../../api/gen/chat/chat';
import type { SessionListItem } from '../../../../api/gen/model';
import { isEndedStatus } from '../../sessions';
import { EmotionChips } from '../EmotionChips/EmotionChips';

interface SessionInsightsProps {
  session: SessionListItem;
  /** The caller's tier includes summaries and emotions; without them (USER) the upgrade texts show. */
  summaries: boolean;
}

function Upgrade({ text }: { text: string }) {
  return (
    <Stack gap="xs" align="flex-start">
      <Group gap={6}>
        <IconLock size={16} aria-hidden />
        <Text fw={600} size="sm">
          Upgrade to View
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Button component={Link} to="/about" size="xs">
        Upgrade Now
      </Button>
    </Stack>
  );
}

const NOT_ENDED = 'Please end this conversation for summary and emotions';

/**
 * The 'Session Summary' and 'Session Emotions' dropdowns of a card. Paid roles
 * get the summary and emotions of ended sessions from GET /api/chat/sessions/{id}
 * once a dropdown is opened; nothing is fetched for USER or for sessions still
 * going (spec §6).
 */
export function SessionInsights({ session, summaries }: SessionInsightsProps) {
  const free = !summaries;
  const ended = isEndedStatus(session.status);
  const [open, setOpen] = useState<string[]>([]);
  // Fetched when a dropdown is first opened, so a long list costs one request per card read.
  const detail = useGetChatSession(session.id, { query: { enabled: !free && ended && open.length > 0 } });

  const summary = detail.data?.sessionSummary ?? session.sessionSummary;
  const emotions = detail.data?.sessionEmotions ?? session.sessionEmotions ?? [];

  let summaryBody;
  let emotionsBody;
  if (free) {
    summaryBody = <Upgrade text="Upgrade to view session summaries" />;
    emotionsBody = <Upgrade text="Upgrade to view emotion analysis" />;
  } else if (!ended) {
    summaryBody = <Text size="sm" c="dimmed">{NOT_ENDED}</Text>;
    emotionsBody = <Text size="sm" c="dimmed">{NOT_ENDED}</Text>;
  } else if (detail.isPending) {
    summaryBody = <Text size="sm" c="dimmed">Loading...</Text>;
    emotionsBody = summaryBody;
  } else {
    // Model output is untrusted: rendered as text, never as HTML.
    summaryBody = <Text size="sm">{summary || 'No summary yet. It will appear here shortly.'}</Text>;
    emotionsBody =
      emotions.length > 0 ? (
        <EmotionChips emotions={emotions} />
      ) : (
        <Text size="sm" c="dimmed">
          No emotions recorded yet.
        </Text>
      );
  }

  return (
    <Accordion
      multiple
      value={open}
      onChange={setOpen}
      variant="separated"
      chevronPosition="right"
      // The card opens the chat on click; the dropdowns must not.
      onClick={(event) => event.stopPropagation()}
    >
      <Accordion.Item value="summary">
        <Accordion.Control>Session Summary</Accordion.Control>
        <Accordion.Panel>
          <ScrollArea.Autosize mah={200} type="auto">
            {summaryBody}
          </ScrollArea.Autosize>
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="emotions">
        <Accordion.Control>Session Emotions</Accordion.Control>
        <Accordion.Panel>
          <ScrollArea.Autosize mah={200} type="auto">
            {emotionsBody}
          </ScrollArea.Autosize>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
