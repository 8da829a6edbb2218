import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { getGetChatSessionMockHandler } from '../../api/gen/chat/chat.msw';
import type { SendMessageResponse, SessionDetail } from '../../api/gen/model';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import { getGetClientConfigMockHandler } from '../../api/gen/public/public.msw';
import { PinnedSupport } from '../../features/chat/components/PinnedSupport/PinnedSupport';
import { sseEvent, sseResponse } from '../../features/chat/testing/sse';
import { aProfile, aReply, aSessionDetail, aUser, render, screen, server, SESSION_ID as SESSION, waitFor, within } from '../../test-utils';
import { ChatPage } from './ChatPage';
import { fakeChatLayout } from '../../features/chat/testing/layout';

// Issue 32: once a reply has asked about risk, the support lines stay pinned above the composer
// for the rest of the session, foldable but never removed.

const CHECK_IN = 'Thank you for telling me how you are feeling. Are you thinking about hurting yourself or ending your life?';

/** A new session, before its first message. */
const aNewChat = (extra: Partial<SessionDetail> = {}) => aSessionDetail({ title: 'New Chat', sessionTokensUsed: 0, ...extra });
const replyOf = (aiResponse: string, extra: Partial<SendMessageResponse> = {}) =>
  aReply({ title: 'A chat', aiResponse, sessionTokensUsed: 0, ...extra });

fakeChatLayout();

beforeEach(() => {
  server.use(
    getGetClientConfigMockHandler({ oidcSignIn: false, payments: false, offlineCompanion: false, serverSpeech: false, transcription: false }),
    getGetCurrentUserMockHandler(aUser()),
    http.get('*/api/profile', () =>
      HttpResponse.json(aProfile()),
    ),
    // A country the table does not cover: the lines are findahelpline.com alone.
    http.get('*/api/public/safety-resources', () =>
      HttpResponse.json({ country: null, covered: false, emergency: '', lines: [], fallbackUrl: 'https://findahelpline.com', countries: [] }),
    ),
  );
});

function renderChat() {
  return render(
    <Routes>
      <Route path="/chat/:sessionId?" element={<ChatPage />} />
    </Routes>,
    { route: `/chat/${SESSION}` },
  );
}

const toggle = () => screen.getByRole('button', { name: 'Support lines' });

describe('PinnedSupport', () => {
  it('folds to its one line and unfolds, and offers no way to remove it', async () => {
    const { user } = render(<PinnedSupport category="suicide" />);
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'findahelpline.com' })).toBeVisible();

    await user.click(toggle());
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'findahelpline.com' })).toBeNull();
    expect(screen.getByText('Support lines')).toBeVisible();

    await user.click(toggle());
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('link', { name: 'findahelpline.com' })).toBeVisible();
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });
});

describe('ChatPage pinned support lines', () => {
  it('pins the lines after a check-in and keeps them after the next, ordinary reply', async () => {
    const replies = [replyOf(CHECK_IN, { safetyPinned: { category: 'suicide' } }), replyOf('That sounds like a lot to carry.', { safetyPinned: { category: 'suicide' } })];
    let n = 0;
    server.use(
      getGetChatSessionMockHandler(aNewChat()),
      http.post('*/api/chat/message/stream', () => {
        const r = replies[n++];
        return sseResponse([sseEvent('delta', { text: r.aiResponse }), sseEvent('done', r)]);
      }),
    );
    const { user } = renderChat();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('button', { name: 'Support lines' })).toBeNull();

    await user.type(box, 'i cant do this anymore{Enter}');
    const card = (await screen.findByRole('button', { name: 'Support lines' })).closest('section')!;
    expect(card).toHaveAttribute('data-category', 'suicide');
    expect(within(card).getByRole('link', { name: 'findahelpline.com' })).toBeVisible();

    await user.type(box, 'idk, school mostly{Enter}');
    await waitFor(() => expect(screen.getByText('That sounds like a lot to carry.')).toBeInTheDocument());
    expect(toggle()).toBeInTheDocument();
  }, 20_000);

  it('shows the lines of a session that pinned them before, as soon as it loads', async () => {
    server.use(getGetChatSessionMockHandler(aNewChat({ safetyPinned: { category: 'self_harm' } })));
    renderChat();
    expect(await screen.findByRole('button', { name: 'Support lines' })).toHaveAttribute('aria-expanded', 'true');
    expect(toggle().closest('section')).toHaveAttribute('data-category', 'self_harm');
  });

  it('pins nothing in a session whose replies were ordinary', async () => {
    server.use(
      getGetChatSessionMockHandler(aNewChat()),
      http.post('*/api/chat/message/stream', () =>
        sseResponse([sseEvent('delta', { text: 'Colds are miserable.' }), sseEvent('done', replyOf('Colds are miserable.'))]),
      ),
    );
    const { user } = renderChat();
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'this cold is killing me lol{Enter}');
    await waitFor(() => expect(screen.getByText('Colds are miserable.')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Support lines' })).toBeNull();
  });
});
