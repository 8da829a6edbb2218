import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { useListChatSessions } from '../../api/gen/chat/chat';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { DashboardGreeting } from '../../features/dashboard/DashboardGreeting';
import { awaitingSummary, summaryPolling } from '../../features/dashboard/glance';
import { DashboardCards } from '../../features/insights/DashboardCards';
import { useEntitlements } from '../../features/insights/useEntitlements';
import { useLocation } from 'react-router';
import { SessionCard } from '../../features/chat/components/SessionCard/SessionCard';
import { useStartNewChat } from '../../features/chat/hooks/useStartNewChat';
import { filterSessions } from '../../features/chat/sessions';

/** /dashboard: the session list (spec §2, Dashboard). */
export function DashboardPage() {
  const [query, setQuery] = useState('');
  // Its own cache entry of GET /api/auth/me: a failed lookup here only means USER (spec §6),
  // never a sign-out the way a failure of the auth state's lookup is.
  const { summaries } = useEntitlements().entitlements;
  // The session the chat just ended, when the dashboard follows End Session.
  const endedSessionId = (useLocation().state as { endedSessionId?: string } | null)?.endedSessionId;
  // While an ended session's summary is being written (roles that get summaries),
  // the list is asked again every few seconds, for two minutes at most.
  const waitingSince = useRef<number | null>(null);
  const sessions = useListChatSessions({
    query: {
      refetchInterval: (query) => {
        const waiting = summaries && (query.state.data ?? []).some(awaitingSummary);
        if (!waiting) {
          waitingSince.current = null;
          return false;
        }
        waitingSince.current ??= Date.now();
        return Date.now() - waitingSince.current < summaryPolling.forMs ? summaryPolling.everyMs : false;
      },
    },
  });
  const newChat = useStartNewChat();

  const visible = useMemo(() => filterSessions(sessions.data ?? [], query), [sessions.data, query]);

  const newChatButton = (
    <Button
      onClick={newChat.start}
      disabled={newChat.creating}
      leftSection={newChat.creating ? <Loader size="xs" aria-label="Creating session" /> : <IconPlus size={16} aria-hidden />}
    >
      Start New Chat
    </Button>
  );

  let body;
  if (sessions.isPending) {
    body = <PageLoader label="Loading your sessions..." />;
  } else if (sessions.isError) {
    body = (
      <Alert color="clay" title="Failed to load sessions" role="alert">
        <Button variant="light" color="clay" mt="xs" onClick={() => void sessions.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else if (visible.length === 0) {
    body = (
      <Center py="xl">
        <Stack align="center" gap="sm">
          <Title order={2} fz="h3">
            No sessions found
          </Title>
          <Text c="dimmed">{query.trim() ? `No sessions match ${query}` : 'Start your first conversation!'}</Text>
          {newChatButton}
        </Stack>
      </Center>
    );
  } else {
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" style={{ alignItems: 'start' }}>
        {visible.map((session) => (
          <SessionCard key={session.id} session={session} summaries={summaries} justEnded={session.id === endedSessionId} />
        ))}
      </SimpleGrid>
    );
  }

  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Title order={1} fz="h2">
          Your Sessions
        </Title>
        <DashboardGreeting />
        <Group wrap="nowrap" gap="sm">
          <TextInput
            flex={1}
            placeholder="Search by session name or date"
            aria-label="Search sessions"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
          />
          <Tooltip label="Start New Chat">
            <ActionIcon
              size={42}
              radius="xl"
              variant="filled"
              aria-label="Start New Chat"
              onClick={newChat.start}
              disabled={newChat.creating}
            >
              {newChat.creating ? <Loader size="xs" color="white" aria-label="Creating session" /> : <IconPlus size={22} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        </Group>
        {newChat.error ? (
          <Alert color="clay" role="alert">
            {newChat.error}
          </Alert>
        ) : null}
        {body}
        <DashboardCards />
      </Stack>
    </Container>
  );
}
