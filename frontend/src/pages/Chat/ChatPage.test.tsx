import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { getGetChatSessionMockHandler } from '../../api/gen/chat/chat.msw';
import type { Message, SessionDetail } from '../../api/gen/model';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import { getGetClientConfigMockHandler } from '../../api/gen/public/public.msw';
import { controlledSse, sseEvent, sseResponse } from '../../features/chat/testing/sse';
import { fakeChatLayout } from '../../features/chat/testing/layout';
import { FakeRecognition, withFakeRecognition } from '../../features/voice/testing/fakeRecognition';
import { act, aMessage, aReply, aSessionDetail, aUser, render, screen, server, SESSION_ID as SESSION, waitFor, within } from '../../test-utils';
import { ChatPage } from './ChatPage';
import { CONTINUE_THREAD } from '../../features/chat/components/ChatScreen/ChatScreen';
import { threadOpening } from '../../features/chat/hooks/chatState';
import { ProtectedRoute } from '../../auth/ProtectedRoute/ProtectedRoute';
import { setTokens } from '../../auth/storage';

const TROUBLE = "I'm having trouble connecting. Please check your connection or try again later.";

/** The conversation's message number `index`: the user's at even numbers, the reply's at odd ones. */
function nth(index: number, overrides: Partial<Message> = {}): Message {
  const mine = index % 2 === 0;
  return aMessage({
    id: `m-${index}`,
    content: mine ? `I said thing ${index}` : `You reflected on thing ${index}`,
    role: mine ? 'user' : 'assistant',
    ...overrides,
  });
}

/** The session these tests open: one exchange. */
function aDetail(overrides: Partial<SessionDetail> = {}): SessionDetail {
  return aSessionDetail({ messages: [nth(0), nth(1)], ...overrides });
}

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

/** `signedIn` puts the page behind ProtectedRoute, as the app does, so it opens once the user is known. */
function renderChat(route = '/chat', { signedIn = false } = {}) {
  const page = (
    <>
      <ChatPage />
      <Where />
    </>
  );
  return render(
    <Routes>
      <Route path="/chat/:sessionId?" element={signedIn ? <ProtectedRoute>{page}</ProtectedRoute> : page} />
      <Route path="/dashboard" element={<p>dashboard page</p>} />
    </Routes>,
    { route },
  );
}

/** The open session's next reply is its last: the server ends it at its token limit. The
 *  requests sent are collected in the returned list. */
function nextReplyReachesTheLimit(): unknown[] {
  const sent: unknown[] = [];
  server.use(
    getGetChatSessionMockHandler(aDetail()),
    http.post('*/api/chat/message/stream', async ({ request }) => {
      sent.push(await request.json());
      return sseResponse([
        sseEvent('delta', { text: 'Thank you for sharing.' }),
        sseEvent('done', aReply({ aiResponse: 'Thank you for sharing.', sessionEnded: true, endReason: 'Token limit reached', sessionTokensUsed: 1000 })),
      ]);
    }),
  );
  return sent;
}

const box = () => screen.getByRole('textbox', { name: 'Message' });
const aiTexts = () => screen.queryAllByTestId('ai-message').map((el) => el.textContent);
const userTexts = () => screen.queryAllByTestId('user-message').map((el) => el.textContent);

fakeChatLayout();

beforeEach(() => {
  server.use(
    getGetClientConfigMockHandler({ oidcSignIn: false, payments: false, offlineCompanion: false, serverSpeech: false, transcription: false }),
    // The chat reads what the tier includes (voice, summaries) from /api/auth/me: a FREE user unless a test says otherwise.
    getGetCurrentUserMockHandler(aUser()),
  );
});

describe('ChatPage', () => {
  describe('a new chat', () => {
    it('starts with the title pill, a welcome message, a counter of 0 / 1000 and no End Session', async () => {
      renderChat('/chat');
      expect(screen.getByRole('heading', { name: 'New Chat' })).toBeInTheDocument();
      expect(aiTexts()).toHaveLength(1);
      expect(screen.getByLabelText('Tokens used')).toHaveTextContent('0 / 1000');
      expect(screen.queryByRole('button', { name: 'End Session' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Crisis resources' })).toHaveAttribute('href', '/safety');
      expect(screen.queryByText('Offline companion')).toBeNull();
    });

    it('streams the reply token by token, then replaces the address with the new session', async () => {
      const stream = controlledSse();
      let body: unknown;
      server.use(
        http.post('*/api/chat/message/stream', async ({ request }) => {
          body = await request.json();
          return stream.response();
        }),
      );
      const { user } = renderChat('/chat');

      await user.type(box(), 'I am worried about my exam{Enter}');
      expect(userTexts()).toContain('I am worried about my exam');
      expect(await screen.findByRole('status', { name: 'Percolate is thinking' })).toBeInTheDocument();
      expect(box()).toHaveValue('');

      act(() => stream.send('delta', { text: 'It sounds' }));
      await waitFor(() => expect(aiTexts()).toContain('It sounds'));
      expect(screen.queryByRole('status', { name: 'Percolate is thinking' })).toBeNull();
      act(() => stream.send('delta', { text: ' heavy.' }));
      await waitFor(() => expect(aiTexts()).toContain('It sounds heavy.'));
      expect(screen.getByTestId('where')).toHaveTextContent(/^\/chat$/);

      act(() => {
        stream.send('done', aReply({ aiResponse: 'It sounds heavy.', title: 'Exam worries', sessionTokensUsed: 42 }));
        stream.close();
      });
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/chat/${SESSION}`));
      expect(body).toEqual({ message: 'I am worried about my exam', sessionId: null });
      expect(screen.getByRole('heading', { name: 'Exam worries' })).toBeInTheDocument();
      expect(screen.getByLabelText('Tokens used')).toHaveTextContent('42 / 1000');
      expect(screen.getByRole('button', { name: 'End Session' })).toBeInTheDocument();
      // The screen kept its messages: nothing was reloaded.
      expect(userTexts()).toEqual(['I am worried about my exam']);
    });

    it('sends the next message in the session it created', async () => {
      const bodies: unknown[] = [];
      server.use(
        http.post('*/api/chat/message/stream', async ({ request }) => {
          bodies.push(await request.json());
          return sseResponse([sseEvent('delta', { text: 'ok' }), sseEvent('done', aReply({ aiResponse: 'ok' }))]);
        }),
      );
      const { user } = renderChat('/chat');
      await user.type(box(), 'first{Enter}');
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/chat/${SESSION}`));
      await user.type(box(), 'second{Enter}');
      await waitFor(() => expect(bodies).toHaveLength(2));
      expect(bodies[1]).toEqual({ message: 'second', sessionId: SESSION });
    });
  });

  it('reveals a reply that arrives whole one word every 100 ms', async () => {
    server.use(
      getGetChatSessionMockHandler(aDetail({ messages: [] })),
      http.post('*/api/chat/message/stream', () => sseResponse([sseEvent('done', aReply({ aiResponse: 'Breathe in slowly now.' }))])),
    );
    // Only intervals are faked: the reveal runs on one, while MSW and user-event keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { user } = renderChat(`/chat/${SESSION}`);
      await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');
      const reply = await screen.findByTestId('ai-message');

      // A reply is markdown: each paragraph's trailing space is not drawn.
      expect(reply.textContent).toBe('');
      act(() => vi.advanceTimersByTime(100));
      expect(reply.textContent).toBe('Breathe');
      act(() => vi.advanceTimersByTime(99));
      expect(reply.textContent).toBe('Breathe');
      act(() => vi.advanceTimersByTime(1));
      expect(reply.textContent).toBe('Breathe in');
      act(() => vi.advanceTimersByTime(200));
      expect(reply.textContent).toBe('Breathe in slowly now.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends with Enter and adds a newline with Shift+Enter; the Send button sends too; blank text is not sent', async () => {
    const sent: string[] = [];
    server.use(
      getGetChatSessionMockHandler(aDetail()),
      http.post('*/api/chat/message/stream', async ({ request }) => {
        sent.push(((await request.json()) as { message: string }).message);
        return sseResponse([sseEvent('delta', { text: 'mm' }), sseEvent('done', aReply({ aiResponse: 'mm' }))]);
      }),
    );
    const { user } = renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });

    await user.type(box(), 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box()).toHaveValue('line one\nline two');
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent).toEqual(['line one\nline two']));

    await user.type(box(), '   {Enter}');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.type(box(), 'third{Enter}');
    await waitFor(() => expect(sent).toEqual(['line one\nline two', 'third']));
  });

  it('loads a session: title, messages as text, counter and End Session', async () => {
    server.use(
      getGetChatSessionMockHandler(
        aDetail({ messages: [nth(0), nth(1, { content: '<img src=x onerror="alert(1)"> hello' })] }),
      ),
    );
    renderChat(`/chat/${SESSION}`);
    expect(await screen.findByRole('heading', { name: 'Exam worries' })).toBeInTheDocument();
    // The messages follow the screen (the list's rows are rendered after it).
    await screen.findByTestId('user-message');
    expect(userTexts()).toEqual(['I said thing 0']);
    expect(aiTexts()[0]).toContain('<img src=x onerror="alert(1)"> hello');
    expect(document.querySelector('[data-testid="ai-message"] img')).toBeNull();
    expect(screen.getByLabelText('Tokens used')).toHaveTextContent('120 / 1000');
    expect(screen.getByRole('button', { name: 'End Session' })).toBeInTheDocument();
  });

  it('shows an ended session read-only and refuses to send', async () => {
    let sends = 0;
    server.use(
      getGetChatSessionMockHandler(aDetail({ status: 'ENDED', isActive: false })),
      http.post('*/api/chat/message/stream', () => {
        sends += 1;
        return HttpResponse.error();
      }),
    );
    const { user } = renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });

    expect(box()).toBeDisabled();
    expect(box()).toHaveAttribute('placeholder', 'This session has ended. You can read it, but no new messages can be sent.');
    expect(screen.queryByRole('button', { name: 'End Session' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This session has ended. You cannot send new messages.');
    expect(sends).toBe(0);
  });

  describe('an ended chat opened later', () => {
    const endedDetail = aDetail({
      status: 'ENDED',
      isActive: false,
      sessionSummary: 'Talked through exam nerves and a plan for Sunday.',
      sessionEmotions: ['anxiety', 'hope'],
    });

    function signedInAs(role: 'USER' | 'BASIC') {
      setTokens('access', 'refresh');
      server.use(
        getGetCurrentUserMockHandler(aUser({ role })),
      );
    }

    it('shows its summary and emotions at the top to a paid role, and Continue in a new chat starts one', async () => {
      signedInAs('BASIC');
      let body: unknown;
      server.use(
        getGetChatSessionMockHandler(endedDetail),
        http.post('*/api/chat/message', async ({ request }) => {
          body = await request.json();
          return HttpResponse.json(aReply({ sessionId: 'new-session-id' }));
        }),
      );
      const { user } = renderChat(`/chat/${SESSION}`, { signedIn: true });

      const top = await screen.findByRole('region', { name: 'This session has ended' });
      expect(within(top).getByTestId('ended-summary')).toHaveTextContent('Talked through exam nerves and a plan for Sunday.');
      expect(within(top).getByText('anxiety')).toBeInTheDocument();
      expect(box()).toBeDisabled();

      await user.click(within(top).getByRole('button', { name: 'Continue in a new chat' }));
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/chat/new-session-id'));
      expect(body).toEqual({ message: "Hello! I'd like to start a new conversation." });
    });

    it('shows a FREE user no summary, but still offers Continue in a new chat', async () => {
      signedInAs('USER');
      server.use(getGetChatSessionMockHandler(endedDetail));
      renderChat(`/chat/${SESSION}`, { signedIn: true });

      const top = await screen.findByRole('region', { name: 'This session has ended' });
      expect(within(top).getByRole('button', { name: 'Continue in a new chat' })).toBeInTheDocument();
      expect(screen.queryByText(/exam nerves/)).toBeNull();
      expect(screen.queryByText('anxiety')).toBeNull();
    });

    it('follows the tier\'s entitlements, not the role\'s name', async () => {
      // A role that would be "paid" by name, with a table that leaves summaries and voice out.
      const entitlements = { ...aUser({ role: 'BASIC' }).entitlements, summaries: false, voice: false };
      setTokens('access', 'refresh');
      server.use(getGetCurrentUserMockHandler(aUser({ role: 'BASIC', entitlements })), getGetChatSessionMockHandler(endedDetail));
      renderChat(`/chat/${SESSION}`, { signedIn: true });

      await screen.findByRole('region', { name: 'This session has ended' });
      expect(await screen.findByTestId('voice-locked')).toBeInTheDocument();
      expect(screen.queryByText(/exam nerves/)).toBeNull();
    });

    it('is not shown on an active session', async () => {
      server.use(getGetChatSessionMockHandler(aDetail()));
      renderChat(`/chat/${SESSION}`);
      await screen.findByRole('heading', { name: 'Exam worries' });
      expect(screen.queryByRole('button', { name: 'Continue in a new chat' })).toBeNull();
    });
  });

  it('treats isActive false as ended even when the status says active', async () => {
    server.use(getGetChatSessionMockHandler(aDetail({ status: 'ACTIVE', isActive: false })));
    renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });
    expect(box()).toBeDisabled();
  });

  it('ends the session when the server says so, with the summary message', async () => {
    nextReplyReachesTheLimit();
    const { user } = renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });
    await user.type(box(), 'one more thing{Enter}');

    await waitFor(() =>
      expect(aiTexts()).toContain('Session ended: Token limit reached. A summary has been generated for your records.'),
    );
    expect(box()).toBeDisabled();
    expect(screen.getByLabelText('Tokens used')).toHaveTextContent('1000 / 1000');
    expect(screen.queryByRole('button', { name: 'End Session' })).toBeNull();
  });

  it('offers, at the limit, a new session whose welcome picks up the thread (issue 36)', async () => {
    const sent = nextReplyReachesTheLimit();
    const { user } = renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });
    expect(screen.queryByRole('link', { name: CONTINUE_THREAD })).toBeNull();
    await user.type(box(), 'one more thing{Enter}');

    await user.click(await screen.findByRole('link', { name: CONTINUE_THREAD }));
    expect(await screen.findByText(threadOpening('Exam worries'))).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/chat$/);
    expect(box()).toBeEnabled();
    // The new session's first message names the session it continues, so the companion's prompt carries its thread.
    await user.type(box(), 'yes, let us keep going{Enter}');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[0]).toEqual({ sessionId: SESSION, message: 'one more thing' });
    expect(sent[1]).toMatchObject({ sessionId: null, continuesSessionId: SESSION, message: 'yes, let us keep going' });
  });

  it('shows the load failure and treats the session as inactive', async () => {
    server.use(
      http.get('*/api/chat/sessions/:id', () =>
        HttpResponse.json({ code: 'NOT_FOUND', error: 'Not found', message: 'Not found' }, { status: 404 }),
      ),
    );
    renderChat(`/chat/${SESSION}`);
    expect(await screen.findByText('Failed to load session. Please try again.')).toBeInTheDocument();
    expect(box()).toBeDisabled();
  });

  describe('send failures', () => {
    it.each([
      [
        'the response message',
        () => HttpResponse.json({ code: 'RATE_LIMITED', error: 'Too many', message: 'You’ve reached today’s limit of 50 messages. It resets in 3 h.' }, { status: 429 }),
        'You’ve reached today’s limit of 50 messages. It resets in 3 h.',
      ],
      [
        'the server error status',
        () => HttpResponse.json({ code: 'INTERNAL_ERROR', error: 'Something went wrong', message: 'Something went wrong' }, { status: 500 }),
        'Something went wrong',
      ],
      ['the error message', () => HttpResponse.error(), 'Failed to fetch'],
    ])('shows %s and the trouble-connecting bubble', async (_name, reply, text) => {
      server.use(getGetChatSessionMockHandler(aDetail()), http.post('*/api/chat/message/stream', reply));
      const { user } = renderChat(`/chat/${SESSION}`);
      await screen.findByRole('heading', { name: 'Exam worries' });
      await user.type(box(), 'hello{Enter}');

      const alert = await screen.findByRole('alert');
      if (text === 'Failed to fetch') expect(alert.textContent).not.toBe('');
      else expect(alert).toHaveTextContent(text);
      await waitFor(() => expect(aiTexts()).toContain(TROUBLE));
      // The user's message stays on screen.
      expect(userTexts()).toContain('hello');
    });

    it('shows the server error of an unsuccessful reply, or Unknown error occurred.', async () => {
      server.use(
        getGetChatSessionMockHandler(aDetail()),
        http.post('*/api/chat/message/stream', () =>
          sseResponse([sseEvent('done', aReply({ success: false, aiResponse: '', error: null }))]),
        ),
      );
      const { user } = renderChat(`/chat/${SESSION}`);
      await screen.findByRole('heading', { name: 'Exam worries' });
      await user.type(box(), 'hello{Enter}');
      expect(await screen.findByRole('alert')).toHaveTextContent('Unknown error occurred.');
      expect(aiTexts()).not.toContain(TROUBLE);
    });
  });

  describe('End Session', () => {
    const endedItem = {
      id: SESSION,
      title: 'Exam worries',
      lastMessage: null,
      updatedAt: '2026-11-20T10:00:00Z',
      status: 'ENDED' as const,
      sessionSummary: null,
      sessionEmotions: [],
    };

    it('asks first, keeps how the user feels, then ends the session and goes to the dashboard', async () => {
      let ended: string | undefined;
      let body: unknown;
      server.use(
        getGetChatSessionMockHandler(aDetail()),
        http.get('*/api/chat/sessions/:id/takeaway', () =>
          HttpResponse.json({ takeaway: "The stress around your exams makes sense, and you don't have to sort it all out at once." }),
        ),
        http.post('*/api/chat/sessions/:id/end', async ({ params, request }) => {
          ended = String(params.id);
          body = await request.json();
          return HttpResponse.json(endedItem);
        }),
      );
      const { user } = renderChat(`/chat/${SESSION}`);
      await user.click(await screen.findByRole('button', { name: 'End Session' }));
      const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
      expect(ended).toBeUndefined();
      expect(within(dialog).getByText('How do you feel now?')).toBeInTheDocument();
      expect(await within(dialog).findByRole('region', { name: 'One thing to take with you' })).toHaveTextContent(
        "The stress around your exams makes sense, and you don't have to sort it all out at once.",
      );
      await user.click(within(dialog).getByRole('button', { name: 'Better' }));
      expect(within(dialog).getByRole('button', { name: 'Better' })).toHaveAttribute('aria-pressed', 'true');
      await user.click(within(dialog).getByRole('button', { name: 'End Session' }));
      expect(await screen.findByText('dashboard page')).toBeInTheDocument();
      expect(ended).toBe(SESSION);
      expect(body).toEqual({ feeling: 'better' });
    });

    it('keeps the chat on Cancel and on Escape', async () => {
      let calls = 0;
      server.use(
        getGetChatSessionMockHandler(aDetail()),
        http.get('*/api/chat/sessions/:id/takeaway', () => HttpResponse.json({ takeaway: '' })),
        http.post('*/api/chat/sessions/:id/end', () => {
          calls += 1;
          return HttpResponse.json(endedItem);
        }),
      );
      const { user } = renderChat(`/chat/${SESSION}`);
      await user.click(await screen.findByRole('button', { name: 'End Session' }));
      let dialog = await screen.findByRole('dialog', { name: 'End this session?' });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      await user.click(screen.getByRole('button', { name: 'End Session' }));
      dialog = await screen.findByRole('dialog', { name: 'End this session?' });
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls).toBe(0);
      expect(screen.queryByText('dashboard page')).toBeNull();
    });

    it('shows Failed to end session when ending fails', async () => {
      server.use(
        getGetChatSessionMockHandler(aDetail()),
        http.get('*/api/chat/sessions/:id/takeaway', () => HttpResponse.json({ takeaway: '' })),
        http.post('*/api/chat/sessions/:id/end', () => HttpResponse.json({ code: 'X', error: 'x', message: 'x' }, { status: 500 })),
      );
      const { user } = renderChat(`/chat/${SESSION}`);
      await user.click(await screen.findByRole('button', { name: 'End Session' }));
      const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
      await user.click(within(dialog).getByRole('button', { name: 'End Session' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to end session');
      expect(screen.queryByText('dashboard page')).toBeNull();
    });
  });

  it('labels the offline companion when the server runs it', async () => {
    server.use(getGetClientConfigMockHandler({ oidcSignIn: false, payments: false, offlineCompanion: true, serverSpeech: false, transcription: false }));
    const { user } = renderChat('/chat');
    // A named icon button whose note opens on a tap or click (a toggletip: readable on a phone) and closes with Escape.
    const button = await screen.findByRole('button', { name: 'Offline companion' });
    await user.click(button);
    expect(await screen.findByRole('dialog', { name: 'Offline companion' })).toHaveTextContent(
      "Replies come from Percolate's built-in offline companion, not a language model.",
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Offline companion' })).toBeNull());
  });

  it('opens with the focus in the message box, and labels End Session in words (issue 36)', async () => {
    server.use(getGetChatSessionMockHandler(aDetail({ messages: [nth(0), nth(1)] })));
    renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });
    expect(box()).toHaveFocus();
    // A visible word, not only a name on an icon.
    expect(screen.getByRole('button', { name: 'End Session' })).toHaveTextContent('End Session');
  });

  it('opens a new chat with the focus in the message box', async () => {
    renderChat('/chat');
    await screen.findByRole('heading', { name: 'New Chat' });
    expect(box()).toHaveFocus();
  });

  it('keeps a 2,000-message session light: only the rows near the viewport are in the page', async () => {
    const messages = Array.from({ length: 2000 }, (_, i) => nth(i));
    server.use(getGetChatSessionMockHandler(aDetail({ messages })));
    renderChat(`/chat/${SESSION}`);
    await screen.findByRole('heading', { name: 'Exam worries' });

    const log = screen.getByRole('log', { name: 'Conversation' });
    // It opens at the newest message...
    await waitFor(() => expect(log.textContent).toContain('You reflected on thing 1999'));
    // ...with only a screenful of rows (plus overscan) in the page.
    const rendered = within(log).getAllByTestId(/message$/);
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(40);
    expect(log.textContent).not.toContain('I said thing 0');
  });
});

describe('ChatPage voice', () => {
  withFakeRecognition();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('sends what a paid user says with 🎤, shows the reply with 🔊 and plays its audio', async () => {
    setTokens('access', 'refresh');
    let sent: { message?: string; voice?: string } = {};
    server.use(
      getGetCurrentUserMockHandler(aUser({ role: 'BASIC' })),
      http.post('*/api/chat/voice', async ({ request }) => {
        sent = (await request.json()) as typeof sent;
        return HttpResponse.json({ ...aReply({ aiResponse: 'I hear you.' }), audioData: 'SUQzBA==' });
      }),
    );
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    URL.createObjectURL = vi.fn(() => 'blob:reply');
    URL.revokeObjectURL = vi.fn();
    const { user } = renderChat('/chat', { signedIn: true });

    await user.click(await screen.findByRole('switch', { name: /Voice mode/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Voice' }), 'nova');
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    const rec = FakeRecognition.last!;
    expect(rec.lang).toBe('en-US');
    act(() => rec.say([{ text: 'I am tired', final: true }]));
    // Sent 2 s after speech stops.
    await waitFor(() => expect(sent.message).toBe('I am tired'));
    expect(sent.voice).toBe('nova');
    await waitFor(() => expect(userTexts()).toContain('🎤 I am tired'));
    await waitFor(() => expect(aiTexts().some((t) => t?.startsWith('🔊'))).toBe(true));
    await waitFor(() => expect(play).toHaveBeenCalled());
  }, 15000);
});
