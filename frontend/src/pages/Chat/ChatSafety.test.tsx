import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { getGetChatSessionMockHandler } from '../../api/gen/chat/chat.msw';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import { getGetClientConfigMockHandler } from '../../api/gen/public/public.msw';
import { sseEvent, sseResponse } from '../../features/chat/testing/sse';
import { aProfile, aReply, aSessionDetail, aUser, render, screen, server, SESSION_ID as SESSION, waitFor, within } from '../../test-utils';
import { ChatPage } from './ChatPage';
import { resourcesFor } from '../../features/safety/fixtures';
import { fakeChatLayout } from '../../features/chat/testing/layout';

const proposal = vi.hoisted(() => ({ country: 'GB' as string | null }));
vi.mock('../../features/safety/proposeCountry', () => ({ browserCountry: () => proposal.country, proposeCountry: () => proposal.country }));

// The server's fixed replies for a user in the UK (companion.ResourcesFor, CheckInReplyFor, CrisisReplyFor).
const RESOURCES =
  'If you are in immediate danger, call 999 now. ' +
  'You can call 116 123 to reach Samaritans, free and confidential. ' +
  'findahelpline.com lists free, confidential helplines in every country.';
const QUESTION = 'I want to make sure I understand — are you thinking about hurting yourself or ending your life?';
const CHECK_IN = `Thank you for telling me how you're feeling. ${QUESTION} It's okay to tell me either way. ${RESOURCES} I'm an AI, so I can't help in an emergency, but I'm here to keep listening.`;
const CRISIS = `Thank you for telling me. What you're going through sounds really painful, and you deserve support from a real person right now. ${RESOURCES} I'm an AI, so I can't help in an emergency, but I'm here to keep listening if you want to keep talking.`;

/** A new session, before its first message. */
const aNewChat = () => aSessionDetail({ title: 'New Chat', sessionTokensUsed: 0 });
const replyOf = (aiResponse: string) => aReply({ title: 'A difficult moment', aiResponse, sessionTokensUsed: 0 });

// jsdom lays nothing out: give the conversation a viewport and each row a height.
fakeChatLayout();

beforeEach(() => {
  server.use(
    getGetClientConfigMockHandler({ oidcSignIn: false, payments: false, offlineCompanion: false, serverSpeech: false, transcription: false }),
    // The chat reads what the tier includes (voice, summaries) from /api/auth/me: a FREE user unless a test says otherwise.
    getGetCurrentUserMockHandler(aUser()),
    http.get('*/api/profile', () => HttpResponse.json(aProfile({ country: 'GB' }))),
    http.get('*/api/public/safety-resources', ({ request }) =>
      HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
    ),
  );
});

const aiTexts = () => screen.queryAllByTestId('ai-message').map((el) => el.textContent);

describe('ChatPage safety replies', () => {
  it('shows the check-in to a possible risk, then the crisis reply to its answer, each with the resources as links', async () => {
    const replies = [CHECK_IN, CRISIS];
    const sent: string[] = [];
    server.use(
      getGetChatSessionMockHandler(aNewChat()),
      http.post('*/api/chat/message/stream', async ({ request }) => {
        sent.push(((await request.json()) as { message: string }).message);
        const text = replies[sent.length - 1];
        return sseResponse([sseEvent('delta', { text }), sseEvent('done', replyOf(text))]);
      }),
    );
    const { user } = render(
      <Routes>
        <Route path="/chat/:sessionId?" element={<ChatPage />} />
      </Routes>,
      { route: `/chat/${SESSION}` },
    );
    const box = await screen.findByRole('textbox', { name: 'Message' });

    await user.click(box);
    await user.paste("I can't do this anymore and I just want to disappear");
    await user.keyboard('{Enter}');
    await waitFor(() => expect(aiTexts()).toContain(CHECK_IN));
    expect(screen.getByText(/are you thinking about hurting yourself or ending your life\?/)).toBeInTheDocument();
    let links = await screen.findAllByRole('navigation', { name: 'Crisis resources in this reply' });
    expect(links).toHaveLength(1);
    expect(await within(links[0]).findByRole('link', { name: 'Call 999' })).toHaveAttribute('href', 'tel:999');
    expect(within(links[0]).getByRole('link', { name: 'Call 116 123 (Samaritans)' })).toHaveAttribute('href', 'tel:116123');
    expect(within(links[0]).getByRole('link', { name: 'findahelpline.com' })).toHaveAttribute('href', 'https://findahelpline.com');

    await user.type(box, 'tonight{Enter}');
    await waitFor(() => expect(aiTexts()).toContain(CRISIS));
    const crisis = screen.getAllByTestId('ai-message').find((el) => el.textContent === CRISIS)!;
    for (const want of ['999', '116 123', 'findahelpline.com']) expect(crisis.textContent).toContain(want);
    links = screen.getAllByRole('navigation', { name: 'Crisis resources in this reply' });
    expect(links).toHaveLength(2);
    expect(sent).toEqual(["I can't do this anymore and I just want to disappear", 'tonight']);
  }, 20_000);

  it('adds no resource links to an ordinary reply', async () => {
    server.use(
      getGetChatSessionMockHandler(aNewChat()),
      http.post('*/api/chat/message/stream', () =>
        sseResponse([sseEvent('delta', { text: 'That exam sounds like a lot.' }), sseEvent('done', replyOf('That exam sounds like a lot.'))]),
      ),
    );
    const { user } = render(
      <Routes>
        <Route path="/chat/:sessionId?" element={<ChatPage />} />
      </Routes>,
      { route: `/chat/${SESSION}` },
    );
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'this exam is killing me{Enter}');
    await waitFor(() => expect(aiTexts()).toContain('That exam sounds like a lot.'));
    expect(screen.queryByRole('navigation', { name: 'Crisis resources in this reply' })).toBeNull();
  });
});
