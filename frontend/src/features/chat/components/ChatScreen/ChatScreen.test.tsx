import { http } from 'msw';
import { vi } from 'vitest';
import { getGetCurrentUserMockHandler } from '../../../../api/gen/auth/auth.msw';
import { getGetChatSessionMockHandler } from '../../../../api/gen/chat/chat.msw';
import type { SendMessageResponse, SessionDetail } from '../../../../api/gen/model';
import { getGetClientConfigMockHandler } from '../../../../api/gen/public/public.msw';
import { act, aUser, render, screen, server, waitFor } from '../../../../test-utils';
import { fakeChatLayout } from '../../testing/layout';
import { controlledSse } from '../../testing/sse';
import type * as ComposerModule from '../Composer/Composer';
import { ChatScreen } from './ChatScreen';

// The composer renders whenever the screen does: counting its renders counts the screen's.
const composerRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('../Composer/Composer', async (importOriginal) => {
  const real = await importOriginal<typeof ComposerModule>();
  return {
    ...real,
    Composer: (props: Parameters<typeof real.Composer>[0]) => {
      composerRenders.count += 1;
      return real.Composer(props);
    },
  };
});

const SESSION = '5f0c2a4e-8d1b-4c3a-9e2f-1a2b3c4d5e6f';

const detail: SessionDetail = {
  sessionId: SESSION,
  title: 'Exam worries',
  status: 'ACTIVE',
  isActive: true,
  sessionTokensUsed: 120,
  sessionTokenLimit: 1000,
  messages: [{ id: 'm-1', role: 'assistant', content: 'What is on your mind?', timestamp: '2026-11-20T10:00:00Z', tokenCount: 5 }],
};

function aReply(aiResponse: string): SendMessageResponse {
  return { success: true, sessionId: SESSION, aiResponse, sessionTokensUsed: 140, sessionTokenLimit: 1000, sessionEnded: false };
}

fakeChatLayout();

/** Animation frames run only when the test says: everything that arrives before is one frame's worth. */
let frames: FrameRequestCallback[] = [];
function runFrame() {
  const due = frames;
  frames = [];
  act(() => due.forEach((callback) => callback(performance.now())));
}

beforeEach(() => {
  frames = [];
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation((id) => {
    frames[id - 1] = () => {};
  });
  server.use(
    getGetClientConfigMockHandler({ oidcSignIn: false, payments: false, offlineCompanion: false, serverSpeech: false, transcription: false }),
    getGetCurrentUserMockHandler(aUser()),
    getGetChatSessionMockHandler(detail),
  );
});

afterEach(() => vi.restoreAllMocks());

const box = () => screen.getByRole('textbox', { name: 'Message' });
const lastReply = () => screen.getAllByTestId('ai-message').at(-1)?.textContent;
/** `count` deltas of a few words each, as the model writes them. */
const words = (from: number, count: number) => Array.from({ length: count }, (_, i) => `word${from + i} `);
/** The text a bubble shows of the deltas (markdown drops the trailing space). */
const shown = (...parts: string[][]) => parts.flat().join('').trim();

describe('a streamed reply', () => {
  it('renders the screen once for many deltas in one frame, shows each frame whole, loses no typing and ends on the exact text', async () => {
    const stream = controlledSse();
    server.use(http.post('*/api/chat/message/stream', () => stream.response()));
    const { user } = render(<ChatScreen initialSessionId={SESSION} onSessionCreated={() => {}} onEnded={() => {}} />);
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'I am worried{Enter}');
    await screen.findByRole('status', { name: 'Percolate is thinking' });
    runFrame();

    // The first 50 deltas arrive within one frame: the reply joins the thread (one render of the
    // screen) and shows every one of them at that frame.
    const first = words(0, 50);
    const before = composerRenders.count;
    act(() => stream.sendAll(first.map((text) => ['delta', { text }])));
    await waitFor(() => expect(lastReply()).toBe(shown([first[0]])));
    await waitFor(() => expect(frames.length).toBeGreaterThan(0));
    runFrame();
    expect(lastReply()).toBe(shown(first));
    expect(composerRenders.count - before).toBe(1);

    // Typing in the composer while the reply streams on: nothing typed is lost.
    await user.type(box(), 'and also');
    const typed = composerRenders.count;

    // The next 50 in one frame: the bubble alone renders; the screen (composer and all) does not.
    const second = words(50, 50);
    act(() => stream.sendAll(second.map((text) => ['delta', { text }])));
    await waitFor(() => expect(frames.length).toBeGreaterThan(0));
    expect(lastReply()).toBe(shown(first));
    runFrame();
    expect(lastReply()).toBe(shown(first, second));
    expect(composerRenders.count).toBe(typed);
    expect(box()).toHaveValue('and also');

    // The last words and the end arrive before any frame: nothing is lost, the text is exact.
    const last = words(100, 5);
    const whole = [...first, ...second, ...last].join('');
    act(() => {
      stream.sendAll([...last.map((text): [string, unknown] => ['delta', { text }]), ['done', aReply(whole)]]);
      stream.close();
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument());
    expect(lastReply()).toBe(whole.trim());
    expect(box()).toHaveValue('and also');
  });

  it('keeps every word that arrived when the reply fails before the next frame', async () => {
    const stream = controlledSse();
    server.use(http.post('*/api/chat/message/stream', () => stream.response()));
    const { user } = render(<ChatScreen initialSessionId={SESSION} onSessionCreated={() => {}} onEnded={() => {}} />);
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'I am worried{Enter}');

    const sent = words(0, 20);
    act(() => {
      stream.sendAll([
        ...sent.map((text): [string, unknown] => ['delta', { text }]),
        ['error', { code: 'COMPANION_UNAVAILABLE', error: 'Cut off.', message: 'Cut off.', sessionId: SESSION }],
      ]);
      stream.close();
    });
    expect(await screen.findByTestId('reply-mark')).toHaveTextContent('Interrupted');
    expect(lastReply()).toBe(shown(sent));
  });
});
