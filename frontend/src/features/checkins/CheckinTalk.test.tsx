import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { getCreateCheckinResponseMock, getListCheckinsMockHandler } from '../../api/gen/checkins/checkins.msw';
import type { CheckinUpdate, SendMessageRequest } from '../../api/gen/model';
import { aCheckin, aReply, render, screen, server } from '../../test-utils';
import { NEW_CHAT_MESSAGE } from '../chat/hooks/useStartNewChat';
import { resourcesFor } from '../safety/fixtures';
import { CheckinCard } from './CheckinCard';

vi.mock('../safety/proposeCountry', () => ({ browserCountry: () => 'GB', proposeCountry: () => 'GB' }));

// No check-in yet today: the card opens unfolded.
beforeEach(() => server.use(getListCheckinsMockHandler([])));

const created = (over: Partial<ReturnType<typeof getCreateCheckinResponseMock>> = {}) =>
  getCreateCheckinResponseMock({ safety: undefined, lowStreak: undefined, ...over, checkin: aCheckin({ id: 'c1', mood: 2 }) });

/** The card on the dashboard, and the chat page "Talk about it" opens. */
function renderCard() {
  return render(
    <Routes>
      <Route path="/dashboard" element={<CheckinCard />} />
      <Route path="/chat/:id" element={<p>chat page</p>} />
    </Routes>,
    { route: '/dashboard' },
  );
}

/** Records what is sent to start a chat and what changes the check-in, in order. */
function answerTalk() {
  const calls: (SendMessageRequest | CheckinUpdate)[] = [];
  server.use(
    http.post('/api/checkins', () => HttpResponse.json(created(), { status: 201 })),
    http.patch('/api/checkins/:id', async ({ request }) => {
      const body = (await request.json()) as CheckinUpdate;
      calls.push(body);
      return HttpResponse.json(created(body.note?.includes('not want to be here') ? { safety: { category: 'suicide' } } : {}));
    }),
    http.post('*/api/chat/message', async ({ request }) => {
      calls.push((await request.json()) as SendMessageRequest);
      return HttpResponse.json(aReply());
    }),
  );
  return calls;
}

describe('CheckinCard: Talk about it', () => {
  it('is offered only once the check-in is saved, and opens a new chat on it without words of the user', async () => {
    const calls = answerTalk();
    const { user } = renderCard();
    expect(screen.queryByRole('button', { name: 'Talk about it' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Low' }));
    await user.click(await screen.findByRole('button', { name: 'Talk about it' }));

    expect(await screen.findByText('chat page')).toBeInTheDocument();
    // The only user-side message is the app's fixed starter, which the chat never shows.
    expect(calls).toEqual([{ message: NEW_CHAT_MESSAGE, checkinId: 'c1' }]);
  });

  it('adds details chosen but not yet added first, so the opening knows them', async () => {
    const calls = answerTalk();
    const { user } = renderCard();
    await user.click(screen.getByRole('button', { name: 'Low' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Sleep' }));

    await user.click(screen.getByRole('button', { name: 'Talk about it' }));

    expect(await screen.findByText('chat page')).toBeInTheDocument();
    expect(calls).toEqual([
      { emotions: [], tags: ['sleep'], note: '' },
      { message: NEW_CHAT_MESSAGE, checkinId: 'c1' },
    ]);
  });

  it('stays on the card with the support lines when the note it saves first is flagged', async () => {
    const calls = answerTalk();
    server.use(
      http.get('*/api/public/safety-resources', ({ request }) =>
        HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
      ),
    );
    const { user } = renderCard();
    await user.click(screen.getByRole('button', { name: 'Low' }));
    await user.type(await screen.findByLabelText(/A note, if you like/), 'I do not want to be here anymore');

    await user.click(screen.getByRole('button', { name: 'Talk about it' }));

    expect(await screen.findByText('Support lines')).toBeInTheDocument();
    expect(screen.getByText('Added to your check-in.')).toBeInTheDocument();
    // No chat was started: the button is not waiting for one, and nothing was sent to the chat.
    expect(screen.getByRole('button', { name: 'Talk about it' })).not.toHaveAttribute('data-loading');
    expect(calls).toEqual([{ emotions: [], tags: [], note: 'I do not want to be here anymore' }]);
    expect(screen.queryByText('chat page')).not.toBeInTheDocument();
  });

  it("opens the chat on the latest check-in from the low-streak card's offer to talk", async () => {
    const calls = answerTalk();
    server.use(
      http.post('/api/checkins', () => HttpResponse.json(created({ lowStreak: true }), { status: 201 })),
      http.get('*/api/public/safety-resources', ({ request }) =>
        HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
      ),
    );
    const { user } = renderCard();
    await user.click(screen.getByRole('button', { name: 'Very low' }));

    await user.click(await screen.findByRole('button', { name: 'Talk it through with Percolate' }));

    expect(await screen.findByText('chat page')).toBeInTheDocument();
    // The same flow as "Talk about it": a new chat on this check-in, so the first reply
    // acknowledges it, and no words of the user.
    expect(calls).toEqual([{ message: NEW_CHAT_MESSAGE, checkinId: 'c1' }]);
  });
});
