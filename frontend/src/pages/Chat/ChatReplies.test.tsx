import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { getGetChatSessionMockHandler } from '../../api/gen/chat/chat.msw';
import type { Message, SessionDetail } from '../../api/gen/model';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import { getGetClientConfigMockHandler } from '../../api/gen/public/public.msw';
import { fakeChatLayout } from '../../features/chat/testing/layout';
import { controlledSse, sseEvent, sseResponse } from '../../features/chat/testing/sse';
import { aMessage, aReply, aSessionDetail, aUser, render, screen, server, SESSION_ID as SESSION, waitFor, within } from '../../test-utils';
import { ChatPage } from './ChatPage';

const STARTER = "Hello! I'd like to start a new conversation.";
const TROUBLE = "I'm having trouble connecting. Please check your connection or try again later.";
const WELCOME = 'Hi, I am Percolate. What is on your mind?';

function line(id: string, role: Message['role'], content: string, overrides: Partial<Message> = {}): Message {
  return aMessage({ id, role, content, ...overrides });
}

/** The session these tests open: the starter and the welcome. */
function aDetail(overrides: Partial<SessionDetail> = {}): SessionDetail {
  return aSessionDetail({ messages: [line('m-0', 'user', STARTER), line('m-1', 'assistant', WELCOME)], ...overrides });
}

function renderChat(route = `/chat/${SESSION}`) {
  return render(
    <Routes>
      <Route path="/chat/:sessionId?" element={<ChatPage />} />
    </Routes>,
    { route },
  );
}

const box = () => screen.getByRole('textbox', { name: 'Message' });
const aiTexts = () => screen.queryAllByTestId('ai-message').map((el) => el.textContent);
const userTexts = () => screen.queryAllByTestId('user-message').map((el) => el.textContent);
const notices = () => screen.queryAllByTestId('reply-notice');

fakeChatLayout();

beforeEach(() => {
  server.use(
    getGetClientConfigMockHandler({ oidcSignIn: false, payments: false, offlineCompanion: false, serverSpeech: false, transcription: false }),
    // The chat reads what the tier includes (voice, summaries) from /api/auth/me: a FREE user unless a test says otherwise.
    getGetCurrentUserMockHandler(aUser()),
  );
});

describe('a clean start', () => {
  it('never shows the starter message as a bubble: the welcome is the first message', async () => {
    server.use(getGetChatSessionMockHandler(aDetail()));
    renderChat();
    await screen.findByRole('heading', { name: 'Exam worries' });
    // The messages follow the screen (the list's rows are rendered after it).
    await screen.findByTestId('ai-message');

    expect(userTexts()).toEqual([]);
    expect(aiTexts()).toEqual([WELCOME]);
    expect(screen.queryByText(STARTER)).toBeNull();
  });

  it('hides only the first user message when it is the starter: the same words later are the user’s own', async () => {
    server.use(
      getGetChatSessionMockHandler(
        aDetail({
          messages: [
            line('m-c', 'assistant', 'Welcome back. Last time was heavy; how are you today?'),
            line('m-0', 'user', STARTER),
            line('m-1', 'assistant', WELCOME),
            line('m-2', 'user', STARTER),
            line('m-3', 'assistant', 'Hello again.'),
          ],
        }),
      ),
    );
    renderChat();
    await screen.findByText('Hello again.');
    expect(userTexts()).toEqual([STARTER]);
  });

  it('offers starter chips on an empty chat that fill the composer, and hides them once the user has spoken', async () => {
    server.use(
      getGetChatSessionMockHandler(aDetail()),
      http.post('*/api/chat/message/stream', () => sseResponse([sseEvent('done', aReply())])),
    );
    const { user } = renderChat();
    const starters = await screen.findByRole('group', { name: 'Conversation starters' });
    expect(within(starters).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Exams on my mind',
      'Roommate stuff',
      'Missing home',
      'Something good happened',
    ]);

    await user.click(within(starters).getByRole('button', { name: 'Missing home' }));
    expect(box()).toHaveValue('Missing home');
    expect(box()).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(await screen.findByText('It sounds like the exam weighs on you.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Conversation starters' })).toBeNull();
  });

  it('offers no chips in a chat that already has the user’s words', async () => {
    server.use(getGetChatSessionMockHandler(aDetail({ messages: [line('m-0', 'user', 'Tired today'), line('m-1', 'assistant', 'Tell me more.')] })));
    renderChat();
    await screen.findByRole('heading', { name: 'Exam worries' });
    expect(screen.queryByRole('group', { name: 'Conversation starters' })).toBeNull();
  });
});

describe('the token counter', () => {
  it('is quiet far from the limit and draws the eye near it', async () => {
    server.use(getGetChatSessionMockHandler(aDetail({ sessionTokensUsed: 120 })));
    const first = renderChat();
    await screen.findByRole('heading', { name: 'Exam worries' });
    expect(screen.getByLabelText('Tokens used')).toHaveTextContent('120 / 1000');
    expect(screen.getByLabelText('Tokens used')).not.toHaveAttribute('data-near-limit');
    first.unmount();

    server.use(getGetChatSessionMockHandler(aDetail({ sessionTokensUsed: 850 })));
    renderChat();
    await screen.findByRole('heading', { name: 'Exam worries' });
    expect(screen.getByLabelText('Tokens used')).toHaveTextContent('850 / 1000');
    expect(screen.getByLabelText('Tokens used')).toHaveAttribute('data-near-limit', 'true');
  });
});

describe('Stop', () => {
  it('turns Send into Stop while a reply streams; Stop asks the server to stop and keeps what arrived, marked stopped', async () => {
    const stream = controlledSse();
    let stops = 0;
    server.use(
      getGetChatSessionMockHandler(aDetail()),
      http.post('*/api/chat/message/stream', () => stream.response()),
      http.post('*/api/chat/sessions/:id/stop', ({ params }) => {
        stops += 1;
        expect(params.id).toBe(SESSION);
        // The server ends the stream the way it does: done, marked stopped.
        stream.send('done', aReply({ aiResponse: 'Let me think', replyStatus: 'stopped' }));
        stream.close();
        return HttpResponse.json({ reply: line('r-1', 'assistant', 'Let me think', { status: 'stopped' }) });
      }),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');

    stream.send('delta', { text: 'Let me think' });
    expect(await screen.findByText('Let me think')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Stop reply' }));

    expect(await screen.findByRole('button', { name: 'Send' })).toBeEnabled();
    expect(stops).toBe(1);
    expect(aiTexts()).toEqual([WELCOME, 'Let me think']);
    expect(screen.getByTestId('reply-mark')).toHaveTextContent('Stopped');
    expect(aiTexts()).not.toContain(TROUBLE);
    expect(screen.queryByRole('alert')).toBeNull();
    // A stopped reply can be answered again.
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('stops reading a stream the server no longer writes (204), keeping what arrived', async () => {
    const stream = controlledSse();
    server.use(
      getGetChatSessionMockHandler(aDetail()),
      http.post('*/api/chat/message/stream', () => stream.response()),
      http.post('*/api/chat/sessions/:id/stop', () => new HttpResponse(null, { status: 204 })),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    stream.send('delta', { text: 'Partly' });
    await screen.findByText('Partly');

    await user.click(screen.getByRole('button', { name: 'Stop reply' }));

    expect(await screen.findByRole('button', { name: 'Send' })).toBeEnabled();
    expect(aiTexts()).toEqual([WELCOME, 'Partly']);
    expect(screen.getByTestId('reply-mark')).toHaveTextContent('Stopped');
    expect(aiTexts()).not.toContain(TROUBLE);
  });
});

describe('Retry', () => {
  it('shows a model failure once, in the thread, with Retry and no connection bubble; Retry answers without sending the message again', async () => {
    let sends = 0;
    let retries = 0;
    server.use(
      getGetChatSessionMockHandler(aDetail()),
      http.post('*/api/chat/message/stream', () => {
        sends += 1;
        return sseResponse([
          sseEvent('error', {
            code: 'COMPANION_UNAVAILABLE',
            error: 'The companion could not answer just now.',
            message: 'The companion could not answer just now.',
            sessionId: SESSION,
          }),
        ]);
      }),
      http.post('*/api/chat/sessions/:id/retry', () => {
        retries += 1;
        return sseResponse([sseEvent('delta', { text: 'Here now.' }), sseEvent('done', aReply({ aiResponse: 'Here now.' }))]);
      }),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');

    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('The companion could not answer just now.');
    expect(screen.getAllByText('The companion could not answer just now.')).toHaveLength(1);
    expect(aiTexts()).not.toContain(TROUBLE);
    expect(userTexts()).toEqual(['hello']);

    await user.click(within(notice).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Here now.')).toBeInTheDocument();
    await waitFor(() => expect(notices()).toHaveLength(0));
    expect(sends).toBe(1);
    expect(retries).toBe(1);
    expect(userTexts()).toEqual(['hello']);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('keeps a reply cut off part-way, marked interrupted, and Retry replaces it', async () => {
    server.use(
      getGetChatSessionMockHandler(aDetail()),
      http.post('*/api/chat/message/stream', () =>
        sseResponse([
          sseEvent('delta', { text: 'Half a tho' }),
          sseEvent('error', { code: 'COMPANION_UNAVAILABLE', error: 'Cut off.', message: 'Cut off.', sessionId: SESSION }),
        ]),
      ),
      http.post('*/api/chat/sessions/:id/retry', () =>
        sseResponse([sseEvent('delta', { text: 'A whole thought.' }), sseEvent('done', aReply({ aiResponse: 'A whole thought.' }))]),
      ),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Cut off.');
    expect(aiTexts()).toEqual([WELCOME, 'Half a tho']);
    expect(screen.getByTestId('reply-mark')).toHaveTextContent('Interrupted');

    await user.click(screen.getByRole('button', { name: 'Retry' }));

    await waitFor(() => expect(aiTexts()).toEqual([WELCOME, 'A whole thought.']));
    expect(notices()).toHaveLength(0);
    expect(screen.queryByTestId('reply-mark')).toBeNull();
  });

  it('offers Retry on a stored reply marked interrupted when the chat is opened again', async () => {
    let retries = 0;
    server.use(
      getGetChatSessionMockHandler(
        aDetail({
          messages: [
            line('m-0', 'user', 'Hard week'),
            line('m-1', 'assistant', 'It sounds like', { status: 'interrupted' }),
          ],
        }),
      ),
      http.post('*/api/chat/sessions/:id/retry', () => {
        retries += 1;
        return sseResponse([sseEvent('done', aReply({ aiResponse: 'It sounds like a hard week.' }))]);
      }),
    );
    const { user } = renderChat();
    expect(await screen.findByTestId('reply-mark')).toHaveTextContent('Interrupted');

    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('It sounds like a hard week.')).toBeInTheDocument();
    expect(retries).toBe(1);
    expect(aiTexts()).not.toContain('It sounds like');
  });
});

describe('a reply still being written', () => {
  it('re-attaches when the chat opens and shows it being written', async () => {
    const stream = controlledSse();
    let attaches = 0;
    server.use(
      getGetChatSessionMockHandler(aDetail({ messages: [line('m-0', 'user', 'Tell me about sleep')], replyInProgress: true })),
      http.get('*/api/chat/sessions/:id/stream', () => {
        attaches += 1;
        return stream.response();
      }),
    );
    renderChat();
    await screen.findByRole('heading', { name: 'Exam worries' });

    stream.send('delta', { text: 'Sleep is ' });
    expect(await screen.findByText('Sleep is')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop reply' })).toBeInTheDocument();
    // No "unanswered" notice while the reply is on its way.
    expect(notices()).toHaveLength(0);

    stream.send('delta', { text: 'a kindness.' });
    stream.send('done', aReply({ aiResponse: 'Sleep is a kindness.' }));
    stream.close();

    expect(await screen.findByRole('button', { name: 'Send' })).toBeEnabled();
    expect(aiTexts()).toEqual(['Sleep is a kindness.']);
    expect(attaches).toBe(1);
  });
});

describe('a dropped connection', () => {
  it('marks the cut-off reply interrupted with Retry, keeps one connection bubble, and reconnects by itself', async () => {
    let phase: 'open' | 'down' | 'back' = 'open';
    let sends = 0;
    const stored = 'That sounds like a lot to carry this week.';
    server.use(
      http.get('*/api/chat/sessions/:id', () => {
        if (phase === 'down') return HttpResponse.error();
        if (phase === 'open') return HttpResponse.json(aDetail());
        return HttpResponse.json(
          aDetail({
            sessionTokensUsed: 180,
            messages: [...aDetail().messages, line('m-2', 'user', 'hello'), line('m-3', 'assistant', stored)],
          }),
        );
      }),
      http.post('*/api/chat/message/stream', () => {
        sends += 1;
        // The first reply is cut off part-way (the server went away); then nothing gets through.
        if (sends === 1) {
          phase = 'down';
          return sseResponse([sseEvent('delta', { text: 'That sounds' })]);
        }
        return HttpResponse.error();
      }),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');

    expect(await screen.findByTestId('reply-mark')).toHaveTextContent('Interrupted');
    expect(aiTexts()).toEqual([WELCOME, 'That sounds', TROUBLE]);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to send message');
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting');

    // Sending again while the server is away: still one connection bubble, and no browser words.
    await user.type(box(), 'still there?{Enter}');
    await waitFor(() => expect(sends).toBe(2));
    await waitFor(() => expect(userTexts()).toEqual(['hello', 'still there?']));
    expect(aiTexts().filter((t) => t === TROUBLE)).toHaveLength(1);
    expect(aiTexts()[aiTexts().length - 1]).toBe(TROUBLE);
    expect(document.body.textContent).not.toMatch(/failed to fetch|network ?error/i);

    // The server is back: the chat shows what it stored, and the line it never had stays.
    phase = 'back';
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText(stored)).toBeInTheDocument();
    expect(aiTexts()).toEqual([WELCOME, stored, TROUBLE]);
    expect(userTexts()).toEqual(['hello', 'still there?']);
    expect(screen.queryByTestId('reply-mark')).toBeNull();
    expect(screen.queryByText('Reconnecting', { exact: false })).toBeNull();
  });

  it('follows a reply the server is still writing once it is reachable again', async () => {
    let phase: 'open' | 'back' = 'open';
    server.use(
      http.get('*/api/chat/sessions/:id', () =>
        HttpResponse.json(
          phase === 'open'
            ? aDetail()
            : aDetail({ replyInProgress: true, messages: [...aDetail().messages, line('m-2', 'user', 'hello')] }),
        ),
      ),
      http.post('*/api/chat/message/stream', () => {
        phase = 'back';
        return sseResponse([sseEvent('delta', { text: 'Half' })]);
      }),
      http.get('*/api/chat/sessions/:id/stream', () =>
        sseResponse([sseEvent('delta', { text: 'Half and whole.' }), sseEvent('done', aReply({ aiResponse: 'Half and whole.' }))]),
      ),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    await screen.findByTestId('reply-mark');
    window.dispatchEvent(new Event('online'));

    expect(await screen.findByText('Half and whole.')).toBeInTheDocument();
    await waitFor(() => expect(aiTexts()).toEqual([WELCOME, 'Half and whole.']));
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe("today's prompt", () => {
  it('opens a new chat with the welcome and the prompt as the companion asks it, and sends the answer without a session', async () => {
    let sent: unknown;
    server.use(
      http.post('*/api/chat/message/stream', async ({ request }) => {
        sent = await request.json();
        return sseResponse([sseEvent('delta', { text: 'Good to hear.' }), sseEvent('done', aReply({ aiResponse: 'Good to hear.' }))]);
      }),
    );
    const { user } = render(
      <Routes>
        <Route path="/chat/:sessionId?" element={<ChatPage />} />
      </Routes>,
      { route: { pathname: '/chat', state: { prompt: 'What is one small thing that went well today?' } } },
    );
    await waitFor(() => expect(aiTexts()).toHaveLength(2));
    expect(aiTexts()[1]).toBe("Today's prompt: What is one small thing that went well today?");
    await user.type(box(), 'I finished my essay.{Enter}');
    expect(await screen.findByText('Good to hear.')).toBeInTheDocument();
    expect(sent).toEqual({ message: 'I finished my essay.', sessionId: null });
    // The address is now the session's; the prompt stays in the thread.
    expect(aiTexts()).toEqual([expect.any(String), "Today's prompt: What is one small thing that went well today?", 'Good to hear.']);
  });
});

describe('messages left', () => {
  it('says in words how many messages are left before the session limit, beside the counter', async () => {
    const turns = [1, 2, 3].flatMap((n) => [line(`u${n}`, 'user', `thought ${n}`), line(`a${n}`, 'assistant', `reply ${n}`)]);
    server.use(getGetChatSessionMockHandler(aDetail({ sessionTokensUsed: 700, messages: [...aDetail().messages, ...turns] })));
    renderChat();
    expect(await screen.findByTestId('messages-left')).toHaveTextContent('About 1 message left in this session.');
    expect(screen.getByLabelText('Tokens used')).toHaveTextContent('700 / 1000');
  });

  it('says nothing while plenty are left', async () => {
    const turns = [1, 2, 3].flatMap((n) => [line(`u${n}`, 'user', `thought ${n}`), line(`a${n}`, 'assistant', `reply ${n}`)]);
    server.use(getGetChatSessionMockHandler(aDetail({ sessionTokensUsed: 240, messages: [...aDetail().messages, ...turns] })));
    renderChat();
    await screen.findByRole('heading', { name: 'Exam worries' });
    await waitFor(() => expect(userTexts()).toHaveLength(3));
    expect(screen.queryByTestId('messages-left')).toBeNull();
  });
});
