import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { SessionListItem } from '../../api/gen/model';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { CheckinCard } from '../../features/checkins/CheckinCard';
import { DashboardGreeting } from '../../features/dashboard/DashboardGreeting';
import { Onboarding } from '../../features/onboarding/Onboarding';
import { awaitingSummary, summaryPolling } from '../../features/dashboard/glance';
import { allSessions, useSessionPages } from '../../features/dashboard/sessionPages';
import { DashboardCards } from '../../features/insights/DashboardCards';
import { useEntitlements } from '../../auth/useEntitlements';
import { useLocation } from 'react-router';
import { SessionCard } from '../../features/chat/components/SessionCard/SessionCard';
import { useStartNewChat } from '../../features/chat/hooks/useStartNewChat';
import { filterSessions } from '../../features/chat/sessions';
import classes from './DashboardPage.module.css';
import { measureAfterLayout } from '../../app/virtualRows';

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
  // The server searches once typing pauses; what is already loaded is filtered at once meanwhile.
  const [searched] = useDebouncedValue(query.trim(), 300);
  const sessions = useSessionPages(
    searched,
    (data) => {
      const waiting = summaries && allSessions(data).some(awaitingSummary);
      if (!waiting) {
        waitingSince.current = null;
        return false;
      }
      waitingSince.current ??= Date.now();
      return Date.now() - waitingSince.current < summaryPolling.forMs ? summaryPolling.everyMs : false;
    },
    keepPreviousData,
  );
  const newChat = useStartNewChat();

  const { fetchNextPage } = sessions;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  // The list as the page shows it. React Query hands new data over in a synchronous render (a
  // store's update), so the grid's first render would be one task of every card; deferred, it is a
  // transition, which React renders in slices of a few milliseconds. Typing still filters at once.
  const data = useDeferredValue(sessions.data);
  const visible = useMemo(() => filterSessions(allSessions(data), query), [data, query]);
  // A page counts as loading until the grid shows it: the fetch ends a render before that, and the
  // end of the list, still in view, would ask for the page after it, and so on.
  const pagesShown = data?.pages.length ?? 0;
  const pagesFetched = sessions.data?.pages.length ?? 0;

  const newChatButton = (
    <Button
      onClick={newChat.start}
      disabled={newChat.creating}
      leftSection={newChat.creating ? <Loader size="xs" aria-label="Creating session" /> : <IconPlus size={16} aria-hidden />}
    >
      Start New Chat
    </Button>
  );

  // What stands in for the grid: the loader, the error or the empty list.
  let body: ReactNode = null;
  if (data === undefined && !sessions.isError) {
    body = <PageLoader label="Loading your sessions..." />;
  } else if (sessions.isError) {
    body = (
      <Alert color="clay" title="Failed to load sessions" role="alert">
        <Button variant="light" color="clay" mt="xs" onClick={() => void sessions.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else if (visible.length === 0 && query.trim() !== searched) {
    // Nothing loaded matches yet; the server's search is about to answer.
    body = <PageLoader label="Loading your sessions..." />;
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
  }

  return (
    // On a phone the shell's own padding is margin enough: the search box keeps its width,
    // and the page starts at the shell's own top padding, so that three sessions fit below the
    // check-in card and the prompt (issue 36).
    <Container size="lg" py={{ base: 0, sm: 'md' }} px={{ base: 0, xs: 'md' }}>
      <Stack gap="lg" className={classes.page}>
        {/* New chat beside the title, and the search a row of its own: its placeholder is whole at 360 px (issue 36). */}
        <Group wrap="nowrap" gap="sm" justify="space-between">
          <Title order={1} fz="h2">
            Your Sessions
          </Title>
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
        <CheckinCard />
        <DashboardGreeting />
        <Onboarding />
        <TextInput
          placeholder="Search by session name or date"
          aria-label="Search sessions"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
        />
        {newChat.error ? (
          <Alert color="clay" role="alert">
            {newChat.error}
          </Alert>
        ) : null}
        {/* The grid is in the page from the start, empty until the list is shown, above whatever
            stands in for it: its virtualiser and its place on the page are set up while the page
            is light, not in the commit that first puts the cards in. */}
        <div>
          <SessionGrid
            sessions={body ? [] : visible}
            summaries={summaries}
            endedSessionId={endedSessionId}
            hasMore={!body && sessions.hasNextPage}
            loadingMore={sessions.isFetchingNextPage || pagesShown < pagesFetched}
            loadMore={loadMore}
          />
          {body}
        </div>
        <DashboardCards />
      </Stack>
    </Container>
  );
}

/** A row of cards before it is measured: three plain cards on a desktop are 261 px high. */
const ESTIMATED_ROW = 261;
/** The space between rows, as --mantine-spacing-lg (20 px) is between the columns. */
const ROW_GAP = 20;
/** On a phone (one column) the cards sit closer, so that the first screen holds three or more. */
const PHONE_ROW_GAP = 12;

interface SessionGridProps {
  sessions: SessionListItem[];
  /** The caller's tier includes summaries and emotions. */
  summaries: boolean;
  endedSessionId?: string;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * The cards, three per row on wide screens (two, then one, on narrower ones). Only the rows near
 * the window's view are in the page, so a list of thousands costs what a list of a few does; each
 * row is measured, so a card that grows (a dropdown opening) keeps its own height. The next page
 * loads as the last rows come into view, or from the "Load more" button.
 */
function SessionGrid({ sessions, summaries, endedSessionId, hasMore, loadingMore, loadMore }: SessionGridProps) {
  const sm = useMediaQuery('(min-width: 48em)', false, { getInitialValueInEffect: false });
  const lg = useMediaQuery('(min-width: 75em)', false, { getInitialValueInEffect: false });
  const cols = lg ? 3 : sm ? 2 : 1;
  const rowGap = cols === 1 ? PHONE_ROW_GAP : ROW_GAP;
  const rows = useMemo(() => {
    const out: SessionListItem[][] = [];
    for (let i = 0; i < sessions.length; i += cols) out.push(sessions.slice(i, i + cols));
    return out;
  }, [sessions, cols]);

  const listRef = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState(0);
  // Where the grid starts on the page, again whenever the page's layout changes (the greeting
  // or an alert above it).
  useLayoutEffect(() => {
    const measure = () =>
      setOffset(listRef.current ? Math.round(listRef.current.getBoundingClientRect().top + window.scrollY) : 0);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    // A row of session cards, as a desktop lays it out (cards with a summary are taller).
    estimateSize: () => ESTIMATED_ROW,
    // One row beyond the view each way: each overscanned row adds up to three cards to the
    // first render.
    overscan: 1,
    // The window's size from the first render, so the first render has the rows in view.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    scrollMargin: offset,
    gap: rowGap,
    // A row's size comes from the ResizeObserver, after the browser's own layout.
    measureElement: measureAfterLayout<Window>(),
  });
  const items = virtualizer.getVirtualItems();

  // Scrolling near the end loads the next page, as the button does.
  const moreRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const button = moreRef.current;
    if (!button || loadingMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    }, { rootMargin: '600px 0px' });
    observer.observe(button);
    return () => observer.disconnect();
  }, [hasMore, loadingMore, loadMore]);

  // The rows in view follow one another in the page's flow (so a row is never drawn over
  // another before it is measured), moved down to where the first of them starts.
  const first = items[0];
  return (
    <Stack gap="lg">
      <div ref={listRef} style={{ position: 'relative', height: virtualizer.getTotalSize() }} data-testid="session-grid">
        <div
          className={classes.rows}
          style={{ gap: rowGap, transform: `translateY(${first ? first.start - virtualizer.options.scrollMargin : 0}px)` }}
        >
          {items.map((item) => (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={classes.row}
              style={{ '--cols': cols } as CSSProperties}
            >
              {rows[item.index]!.map((session) => (
                <SessionCard key={session.id} session={session} summaries={summaries} justEnded={session.id === endedSessionId} />
              ))}
            </div>
          ))}
        </div>
      </div>
      {hasMore ? (
        <Center>
          <Button ref={moreRef} variant="light" onClick={loadMore} loading={loadingMore}>
            Load more
          </Button>
        </Center>
      ) : null}
    </Stack>
  );
}
