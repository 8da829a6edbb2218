import { http, HttpResponse, delay } from 'msw';
import { vi } from 'vitest';
import { setTokens } from '../../auth/storage';
import { promptOfDay, summaryPolling } from '../../features/dashboard/glance';
import { Route, Routes, useLocation } from 'react-router';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import {
  getDeleteChatSessionMockHandler,
  getGetChatSessionMockHandler,
  getGetChatSessionResponseMock,
  getListChatSessionsMockHandler,
  getSendChatMessageMockHandler,
  getSendChatMessageResponseMock,
} from '../../api/gen/chat/chat.msw';
import { aProfile, aSession, aUser, render, screen, server, waitFor, within } from '../../test-utils';
import { getGetProfileMockHandler } from '../../api/gen/profile/profile.msw';
import { getListCheckinsMockHandler } from '../../api/gen/checkins/checkins.msw';

// The dashboard asks whether the onboarding was done (these users have done it) and for today's
// check-ins (none yet).
beforeEach(() => server.use(getGetProfileMockHandler(aProfile()), getListCheckinsMockHandler([])));
import { DashboardPage } from './DashboardPage';

const active = aSession();
const ended = aSession({
  id: 'a1b2c3d4-0000-4000-8000-000000000002',
  title: 'Sunday reflections',
  lastMessage: 'Thanks, that helped',
  status: 'ENDED',
});
const untitled = aSession({ id: 'ffee0000-0000-4000-8000-000000000003', title: '', lastMessage: null, updatedAt: '' });

function Where() {
  const location = useLocation();
  const prompt = (location.state as { prompt?: string } | null)?.prompt;
  return <p data-testid="where">{prompt ? `${location.pathname} ${prompt}` : location.pathname}</p>;
}

function renderDashboard(state?: unknown) {
  return render(
    <Routes>
      <Route path="/dashboard" element={<DashboardPage />} />
      <Route path="/chat/:sessionId?" element={<Where />} />
      <Route path="/about" element={<Where />} />
    </Routes>,
    { route: state ? { pathname: '/dashboard', state } : '/dashboard' },
  );
}

function asRole(role: 'USER' | 'BASIC' | 'PREMIUM') {
  server.use(getGetCurrentUserMockHandler(aUser({ role })));
}

function card(title: string) {
  return screen.getByRole('link', { name: title }).closest<HTMLElement>('[data-testid="session-card"]')!;
}

describe('DashboardPage', () => {
  it('marks the session the user has just ended', async () => {
    asRole('USER');
    server.use(http.get('*/api/chat/sessions', () => HttpResponse.json([active, ended, untitled])));
    renderDashboard({ endedSessionId: ended.id });
    await screen.findByRole('link', { name: 'Sunday reflections' });
    expect(card('Sunday reflections')).toHaveAttribute('aria-current', 'true');
    expect(card('Exam worries')).not.toHaveAttribute('aria-current');
  });

  it('shows the loading state, then one card per session with its title, activity and active dot', async () => {
    asRole('USER');
    server.use(
      http.get('*/api/chat/sessions', async () => {
        await delay(50);
        return HttpResponse.json([active, ended, untitled]);
      }),
    );
    renderDashboard();

    expect(screen.getByText('Loading your sessions...')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Exam worries' })).toHaveAttribute('href', `/chat/${active.id}`);

    expect(screen.getAllByTestId('session-card')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Untitled Session' })).toBeInTheDocument();
    expect(within(card('Exam worries')).getByRole('img', { name: 'Active session' })).toBeInTheDocument();
    expect(within(card('Sunday reflections')).queryByRole('img', { name: 'Active session' })).toBeNull();
    expect(within(card('Untitled Session')).getByText('Last Activity')).toBeInTheDocument();
    expect(within(card('Untitled Session')).getByText('Unknown')).toBeInTheDocument();
    expect(within(card('Exam worries')).queryByText('Unknown')).toBeNull();
  });

  it('compares the status case-insensitively for the green dot', async () => {
    asRole('USER');
    server.use(getListChatSessionsMockHandler([aSession({ status: 'active' as 'ACTIVE' })]));
    renderDashboard();
    expect(await screen.findByRole('img', { name: 'Active session' })).toBeInTheDocument();
  });

  it('shows the search box and the round new-chat button with its tooltip', async () => {
    asRole('USER');
    server.use(getListChatSessionsMockHandler([active]));
    const { user } = renderDashboard();
    await screen.findByRole('link', { name: 'Exam worries' });

    expect(screen.getByPlaceholderText('Search by session name or date')).toBeInTheDocument();
    await user.hover(screen.getByRole('button', { name: 'Start New Chat' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Start New Chat');
  });

  it('shows an error with Retry when the list fails, and loads again on Retry', async () => {
    asRole('USER');
    let calls = 0;
    server.use(
      http.get('*/api/chat/sessions', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ code: 'INTERNAL', error: 'boom', message: 'boom' }, { status: 500 })
          : HttpResponse.json([active]);
      }),
    );
    const { user } = renderDashboard();

    expect(await screen.findByText('Failed to load sessions')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Exam worries' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load sessions')).toBeNull();
  });

  it('shows the empty state with its invitation and a Start New Chat button', async () => {
    asRole('USER');
    server.use(getListChatSessionsMockHandler([]));
    renderDashboard();

    expect(await screen.findByRole('heading', { name: 'No sessions found' })).toBeInTheDocument();
    expect(screen.getByText('Start your first conversation!')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Start New Chat' })).toHaveLength(2);
  });

  it('filters what is loaded at once, case-insensitively on title, last message and id, then asks the server', async () => {
    asRole('USER');
    let listCalls = 0;
    const searches: string[] = [];
    server.use(
      http.get('*/api/chat/sessions', () => {
        listCalls += 1;
        return HttpResponse.json([active, ended, untitled]);
      }),
      http.get('*/api/profile/sessions', ({ request }) => {
        searches.push(new URL(request.url).searchParams.get('query') ?? '');
        return HttpResponse.json([]);
      }),
    );
    const { user } = renderDashboard();
    await screen.findByRole('link', { name: 'Exam worries' });
    const search = screen.getByPlaceholderText('Search by session name or date');

    await user.click(search);
    await user.paste('SUNDAY');
    expect(screen.getAllByTestId('session-card')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Sunday reflections' })).toBeInTheDocument();

    await user.clear(search);
    await user.paste('thinking about');
    expect(screen.getByRole('link', { name: 'Exam worries' })).toBeInTheDocument();
    expect(screen.getAllByTestId('session-card')).toHaveLength(1);

    await user.clear(search);
    await user.paste('FFEE0000');
    expect(screen.getByRole('link', { name: 'Untitled Session' })).toBeInTheDocument();
    expect(screen.getAllByTestId('session-card')).toHaveLength(1);

    await user.clear(search);
    await user.paste('holiday');
    expect(await screen.findByRole('heading', { name: 'No sessions found' })).toBeInTheDocument();
    expect(screen.getByText('No sessions match holiday')).toBeInTheDocument();
    expect(listCalls).toBe(1);
    await waitFor(() => expect(searches.at(-1)).toBe('holiday')); // the server search follows the typing's pause
  });

  it('opens the chat when a card is clicked', async () => {
    asRole('USER');
    server.use(getListChatSessionsMockHandler([active]));
    const { user } = renderDashboard();
    await screen.findByRole('link', { name: 'Exam worries' });

    await user.click(within(card('Exam worries')).getByText('Last Activity'));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/chat/${active.id}`);
  });

  describe('at a glance', () => {
    afterEach(() => {
      vi.useRealTimers();
      summaryPolling.everyMs = 4000;
    });

    it('greets the user by local time and shows the prompt of the day above the grid', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const now = new Date(2026, 10, 23, 8, 30);
      vi.setSystemTime(now);
      setTokens('access', 'refresh');
      server.use(getGetCurrentUserMockHandler(aUser({ role: 'USER', name: 'Sam Rivera' })), getListChatSessionsMockHandler([active]));
      renderDashboard();

      expect(await screen.findByText('Good morning, Sam')).toBeInTheDocument();
      expect(screen.getByRole('region', { name: "Today's prompt" })).toHaveTextContent(promptOfDay(now));
      // Above the grid.
      const prompt = screen.getByTestId('journal-prompt');
      const firstCard = await screen.findByTestId('session-card');
      expect(prompt.compareDocumentPosition(firstCard) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });

    it("starts a new chat with today's prompt when it is tapped", async () => {
      setTokens('access', 'refresh');
      server.use(getGetCurrentUserMockHandler(aUser({ role: 'USER' })), getListChatSessionsMockHandler([active]));
      const { user } = renderDashboard();
      const prompt = promptOfDay(new Date());
      await user.click(await screen.findByRole('button', { name: `${prompt}: start a chat about it` }));
      expect(await screen.findByTestId('where')).toHaveTextContent(`/chat ${prompt}`);
    });

    const withSummary = aSession({
      ...ended,
      sessionSummary: 'Talked through exam nerves and a plan for Sunday.\nSecond line that stays in the dropdown.',
      sessionEmotions: ['anxiety', 'hope'],
    });

    it('shows the summary and the emotions once each, in the dropdowns, and the closing feeling on the card', async () => {
      asRole('BASIC');
      server.use(
        getListChatSessionsMockHandler([{ ...withSummary, closingFeeling: 'better' }, active]),
        http.get('*/api/chat/sessions/:id', () =>
          HttpResponse.json({ ...getGetChatSessionResponseMock(), sessionSummary: withSummary.sessionSummary, sessionEmotions: ['anxiety', 'hope'] }),
        ),
      );
      const { user } = renderDashboard();
      const theCard = await waitFor(() => card('Sunday reflections'));
      expect(within(theCard).getByTestId('closing-feeling')).toHaveTextContent('Left feeling better');
      // Nothing of the summary or the emotions before a dropdown is opened.
      expect(within(theCard).queryByText(/exam nerves/)).toBeNull();
      expect(within(theCard).queryByText('anxiety')).toBeNull();

      await user.click(within(theCard).getByRole('button', { name: 'Session Summary' }));
      await user.click(within(theCard).getByRole('button', { name: 'Session Emotions' }));
      expect(await within(theCard).findAllByText(/Talked through exam nerves/)).toHaveLength(1);
      expect(within(theCard).getAllByText('anxiety')).toHaveLength(1);
      expect(within(theCard).getAllByText('hope')).toHaveLength(1);
      // A session still going has no feeling yet.
      expect(within(card('Exam worries')).queryByTestId('closing-feeling')).toBeNull();
    });

    it('shows a FREE user the same cards without the summary or chips, and the upgrade texts', async () => {
      asRole('USER');
      server.use(getListChatSessionsMockHandler([withSummary, aSession({ ...ended, id: 'a1b2c3d4-0000-4000-8000-000000000009', title: 'Later' })]));
      const { user } = renderDashboard();
      const theCard = await waitFor(() => card('Sunday reflections'));

      expect(within(theCard).queryByText(/exam nerves/)).toBeNull();
      expect(within(theCard).queryByText('anxiety')).toBeNull();
      expect(screen.queryByText('summarising…')).toBeNull();
      await user.click(within(theCard).getByRole('button', { name: 'Session Summary' }));
      expect(within(theCard).getByText('Upgrade to view session summaries')).toBeInTheDocument();
    });

    it("shows 'summarising…' for an ended session without a summary and asks again until it arrives", async () => {
      summaryPolling.everyMs = 20;
      asRole('BASIC');
      let calls = 0;
      // The summary is written once the card has been seen waiting for it (the list is shown a
      // render after it arrives, so a count of answers would race the page).
      let written = false;
      server.use(
        http.get('*/api/chat/sessions', () => {
          calls += 1;
          return HttpResponse.json(written ? [withSummary, active] : [ended, active]);
        }),
      );
      renderDashboard();

      expect(await within(await waitFor(() => card('Sunday reflections'))).findByText('summarising…')).toBeInTheDocument();
      written = true;
      const askedBefore = calls;
      await waitFor(() => expect(screen.queryByText('summarising…')).toBeNull());
      expect(calls).toBeGreaterThan(askedBefore);
    });
  });

  describe('summary and emotions', () => {
    it('shows the upgrade texts to a USER and fetches nothing', async () => {
      asRole('USER');
      let detailCalls = 0;
      server.use(
        getListChatSessionsMockHandler([ended]),
        http.get('*/api/chat/sessions/:id', () => {
          detailCalls += 1;
          return HttpResponse.json(getGetChatSessionResponseMock());
        }),
      );
      const { user } = renderDashboard();
      await screen.findByRole('link', { name: 'Sunday reflections' });

      await user.click(screen.getByRole('button', { name: 'Session Summary' }));
      await user.click(screen.getByRole('button', { name: 'Session Emotions' }));
      expect(screen.getAllByText('Upgrade to View')).toHaveLength(2);
      expect(screen.getByText('Upgrade to view session summaries')).toBeInTheDocument();
      expect(screen.getByText('Upgrade to view emotion analysis')).toBeInTheDocument();
      expect(detailCalls).toBe(0);

      await user.click(screen.getAllByRole('link', { name: 'Upgrade Now' })[0]);
      expect(await screen.findByTestId('where')).toHaveTextContent('/about');
    });

    it('treats a failed role lookup as USER', async () => {
      let lookups = 0;
      let detailCalls = 0;
      server.use(
        http.get('*/api/auth/me', () => {
          lookups += 1;
          return HttpResponse.json({ code: 'X', error: 'x', message: 'x' }, { status: 500 });
        }),
        getListChatSessionsMockHandler([ended]),
        http.get('*/api/chat/sessions/:id', () => {
          detailCalls += 1;
          return HttpResponse.json(getGetChatSessionResponseMock());
        }),
      );
      const { user, queryClient } = renderDashboard();
      await screen.findByRole('link', { name: 'Sunday reflections' });
      await waitFor(() => expect(lookups).toBe(1));
      await waitFor(() => expect(queryClient.isFetching()).toBe(0));

      await user.click(screen.getByRole('button', { name: 'Session Summary' }));
      expect(screen.getAllByText('Upgrade to View')).toHaveLength(2);
      expect(screen.getByText('Upgrade to view session summaries')).toBeInTheDocument();
      expect(detailCalls).toBe(0);
    });

    it('fetches the summary and emotions of ended sessions only, for paid roles', async () => {
      asRole('BASIC');
      const requested: string[] = [];
      server.use(
        getListChatSessionsMockHandler([active, ended]),
        getGetChatSessionMockHandler(({ params }) => {
          requested.push(String(params.id));
          return getGetChatSessionResponseMock({
            sessionId: String(params.id),
            sessionSummary: 'You looked back on a calm weekend and what made it feel good.',
            sessionEmotions: ['calm', 'gratitude'],
          });
        }),
      );
      const { user } = renderDashboard();
      await screen.findByRole('link', { name: 'Sunday reflections' });

      expect(requested).toEqual([]);
      const endedCard = within(card('Sunday reflections'));
      await user.click(endedCard.getByRole('button', { name: 'Session Summary' }));
      expect(
        await endedCard.findByText('You looked back on a calm weekend and what made it feel good.'),
      ).toBeInTheDocument();
      await user.click(endedCard.getByRole('button', { name: 'Session Emotions' }));
      expect(endedCard.getByText('calm')).toBeInTheDocument();
      expect(endedCard.getByText('gratitude')).toBeInTheDocument();

      const activeCard = within(card('Exam worries'));
      await user.click(activeCard.getByRole('button', { name: 'Session Summary' }));
      expect(activeCard.getAllByText('Please end this conversation for summary and emotions')).toHaveLength(2);
      expect(screen.queryByText('Upgrade to View')).toBeNull();
      expect(requested).toEqual([ended.id]);
    });

    it('moves between a card\'s dropdowns with the arrow keys, Home and End, and opens one with Enter without leaving', async () => {
      asRole('USER');
      server.use(getListChatSessionsMockHandler([ended]));
      const { user } = renderDashboard();
      await screen.findByRole('link', { name: 'Sunday reflections' });
      const summary = screen.getByRole('button', { name: 'Session Summary' });
      const emotions = screen.getByRole('button', { name: 'Session Emotions' });

      summary.focus();
      await user.keyboard('{ArrowDown}');
      expect(emotions).toHaveFocus();
      await user.keyboard('{ArrowDown}');
      expect(summary).toHaveFocus();
      await user.keyboard('{ArrowUp}');
      expect(emotions).toHaveFocus();
      await user.keyboard('{Home}');
      expect(summary).toHaveFocus();
      await user.keyboard('{End}');
      expect(emotions).toHaveFocus();

      expect(emotions).toHaveAttribute('aria-expanded', 'false');
      await user.keyboard('{Enter}');
      expect(emotions).toHaveAttribute('aria-expanded', 'true');
      expect(screen.getByRole('region', { name: 'Session Emotions' })).toHaveTextContent('Upgrade to view emotion analysis');
      expect(summary).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByTestId('where')).toBeNull();
    });
  });

  describe('delete', () => {
    it('asks for confirmation, shows the deleting state, then removes the card', async () => {
      asRole('USER');
      let deleted: string | undefined;
      let release!: () => void;
      const answer = new Promise<void>((resolve) => (release = resolve));
      server.use(
        getListChatSessionsMockHandler([active, ended]),
        http.delete('*/api/chat/sessions/:id', async ({ params }) => {
          await answer;
          deleted = String(params.id);
          return new HttpResponse(null, { status: 204 });
        }),
      );
      const { user } = renderDashboard();
      await screen.findByRole('link', { name: 'Exam worries' });

      await user.click(screen.getByRole('button', { name: 'Delete session Exam worries' }));
      const dialog = screen.getByRole('alertdialog', { name: 'Delete Session?' });
      expect(
        within(dialog).getByText(
          'This action cannot be undone. All messages in this session will be permanently deleted.',
        ),
      ).toBeInTheDocument();
      // Acting in the overlay does not open the chat underneath.
      expect(screen.queryByTestId('where')).toBeNull();

      server.use(getListChatSessionsMockHandler([ended]));
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await within(dialog).findByText('Deleting...')).toBeInTheDocument();
      release();
      await waitFor(() => expect(screen.queryByRole('link', { name: 'Exam worries' })).toBeNull());
      expect(deleted).toBe(active.id);
      expect(screen.getByRole('link', { name: 'Sunday reflections' })).toBeInTheDocument();
    });

    it('can be cancelled', async () => {
      asRole('USER');
      server.use(getListChatSessionsMockHandler([active]));
      const { user } = renderDashboard();
      await screen.findByRole('link', { name: 'Exam worries' });
      await user.click(screen.getByRole('button', { name: 'Delete session Exam worries' }));
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(screen.getByRole('link', { name: 'Exam worries' })).toBeInTheDocument();
    });

    it.each([
      ['the server text', () => new HttpResponse('Session is locked', { status: 500, headers: { 'Content-Type': 'text/plain' } }), 'Session is locked'],
      ['the server message', () => HttpResponse.json({ code: 'NOT_FOUND', error: 'Gone', message: 'Session not found' }, { status: 404 }), 'Session not found'],
      ['the default', () => HttpResponse.error(), 'Failed to delete session. Please try again.'],
    ])('keeps the overlay with %s when deleting fails', async (_name, reply, text) => {
      asRole('USER');
      server.use(getListChatSessionsMockHandler([active]), http.delete('*/api/chat/sessions/:id', reply));
      const { user } = renderDashboard();
      await screen.findByRole('link', { name: 'Exam worries' });

      await user.click(screen.getByRole('button', { name: 'Delete session Exam worries' }));
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      const dialog = screen.getByRole('alertdialog', { name: 'Delete Session?' });
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
      expect(screen.getByRole('link', { name: 'Exam worries' })).toBeInTheDocument();
    });
  });

  describe('new chat', () => {
    it('sends the opening message without a session, disables the button with a spinner, then opens the session', async () => {
      asRole('USER');
      let body: unknown;
      let release!: () => void;
      const answer = new Promise<void>((resolve) => (release = resolve));
      server.use(
        getListChatSessionsMockHandler([]),
        http.post('*/api/chat/message', async ({ request }) => {
          body = await request.json();
          await answer;
          return HttpResponse.json(getSendChatMessageResponseMock({ success: true, sessionId: 'new-session-id' }));
        }),
      );
      const { user } = renderDashboard();
      await screen.findByRole('heading', { name: 'No sessions found' });

      const round = screen.getAllByRole('button', { name: 'Start New Chat' })[0];
      await user.click(round);
      await waitFor(() => expect(round).toBeDisabled());
      expect(screen.getAllByLabelText('Creating session').length).toBeGreaterThan(0);
      release();

      expect(await screen.findByTestId('where')).toHaveTextContent('/chat/new-session-id');
      expect(body).toEqual({ message: "Hello! I'd like to start a new conversation." });
    });

    it.each([
      ['the server message', () => HttpResponse.json({ code: 'RATE_LIMITED', error: 'Too many', message: 'Daily limit reached. It resets at midnight UTC.' }, { status: 429 }), 'Daily limit reached. It resets at midnight UTC.'],
      ['the server text', () => new HttpResponse('Service busy', { status: 503, headers: { 'Content-Type': 'text/plain' } }), 'Service busy'],
      ['the default', () => HttpResponse.error(), 'Failed to create new session. Please try again.'],
      ['a reply without a session', () => HttpResponse.json({ success: false }), 'Failed to create session'],
    ])('shows %s when creating fails', async (_name, reply, text) => {
      asRole('USER');
      server.use(getListChatSessionsMockHandler([]), http.post('*/api/chat/message', reply));
      const { user } = renderDashboard();
      await screen.findByRole('heading', { name: 'No sessions found' });

      await user.click(screen.getAllByRole('button', { name: 'Start New Chat' })[1]);
      expect(await screen.findByRole('alert')).toHaveTextContent(text);
      expect(screen.queryByTestId('where')).toBeNull();
    });
  });
});

// Keeps the generated handler in use so a contract change to it breaks this file.
void getDeleteChatSessionMockHandler;
void getSendChatMessageMockHandler;
