import { http, HttpResponse } from 'msw';
import { getCreateCheckinResponseMock, getListCheckinsMockHandler } from '../../api/gen/checkins/checkins.msw';
import { getGetProfileResponseMock } from '../../api/gen/profile/profile.msw';
import type { CheckinRequest, User } from '../../api/gen/model';
import { AuthContext, type AuthContextValue } from '../../auth/AuthContext';
import { resourcesFor } from '../safety/fixtures';
import { aCheckin, aUser, render, screen, server, waitFor } from '../../test-utils';
import { CheckinCard } from './CheckinCard';
import { kept } from './offlineQueue';
import { useSendKeptCheckins } from './useKeptCheckins';

vi.mock('../safety/proposeCountry', () => ({ browserCountry: () => 'GB', proposeCountry: () => 'GB' }));

const ada = aUser({ id: 'a0000000-0000-4000-8000-000000000001' });
const bob = aUser({ id: 'b0000000-0000-4000-8000-000000000002', email: 'bob@example.com' });

function as(user: User): AuthContextValue {
  return { status: 'authenticated', user, offline: false, signIn: () => {}, clearSession: () => {}, logout: async () => {} };
}

/** The signed-in layout's sender, and the dashboard's card. */
function Dashboard() {
  useSendKeptCheckins();
  return <CheckinCard />;
}

function renderAs(user: User) {
  return render(
    <AuthContext.Provider value={as(user)}>
      <Dashboard />
    </AuthContext.Provider>,
  );
}

/** Answers POST /api/checkins as `answer` says, recording each body. */
function checkins(answer: () => Response) {
  const posted: CheckinRequest[] = [];
  server.use(
    http.post('/api/checkins', async ({ request }) => {
      posted.push((await request.json()) as CheckinRequest);
      return answer();
    }),
  );
  return posted;
}

const created = (mood: number, over = {}) =>
  getCreateCheckinResponseMock({ safety: undefined, lowStreak: undefined, ...over, checkin: aCheckin({ id: 'c1', mood: mood as 1 }) });

async function checkInOffline(user: User, mood: string) {
  const posted = checkins(() => HttpResponse.error());
  const view = renderAs(user);
  await view.user.click(screen.getByRole('button', { name: mood }));
  expect(await screen.findByRole('status')).toHaveTextContent("Saved on this device: low. It will be sent when you're back online.");
  return { ...view, posted };
}

describe('check-ins made offline', () => {
  beforeEach(() => {
    localStorage.clear();
    // No check-in yet today: the card is open (the dashboard asks; offline, the ask fails too).
    server.use(getListCheckinsMockHandler([]));
  });

  it('keeps a check-in that meets a network error, and sends it once when the connection returns', async () => {
    const { posted: tried, unmount } = await checkInOffline(ada, 'Low');
    expect(tried).toHaveLength(1);
    expect(kept(ada.id).map((k) => k.data)).toEqual([tried[0]]);
    expect(screen.getByRole('button', { name: 'Low' })).toHaveAttribute('aria-pressed', 'true');
    unmount();

    // The app starts again, still offline: the check-in stays kept.
    const again = checkins(() => HttpResponse.error());
    renderAs(ada);
    await waitFor(() => expect(again).toHaveLength(1));
    expect(kept(ada.id)).toHaveLength(1);

    // Back online: sent once, with the clientId it was made with; then nothing is kept.
    const posted = checkins(() => HttpResponse.json(created(2), { status: 201 }));
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(kept(ada.id)).toEqual([]));
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([{ ...tried[0], clientId: tried[0]!.clientId }]);
  });

  it('sends the details added offline; a risky note shows the support lines once it is sent', async () => {
    server.use(
      http.get('*/api/profile', () => HttpResponse.json(getGetProfileResponseMock({ country: 'GB' }))),
      http.get('*/api/public/safety-resources', ({ request }) =>
        HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
      ),
    );
    const { user } = await checkInOffline(ada, 'Low');
    await user.type(screen.getByRole('textbox', { name: 'A note, if you like' }), 'I do not want to be here anymore');
    await user.click(screen.getByRole('button', { name: 'Add to check-in' }));
    expect(kept(ada.id)[0]!.data).toMatchObject({ mood: 2, note: 'I do not want to be here anymore' });

    const posted = checkins(() => HttpResponse.json(created(2, { safety: { category: 'suicide' } }), { status: 201 }));
    window.dispatchEvent(new Event('online'));

    expect(await screen.findByText('Support lines')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Saved: low. Thanks for checking in.');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ mood: 2, note: 'I do not want to be here anymore' });
  });

  it('shows a refusal (400) once it is sent, and does not send it again', async () => {
    await checkInOffline(ada, 'Low');
    const posted = checkins(() =>
      HttpResponse.json(
        { code: 'VALIDATION_ERROR', error: 'Invalid', details: { localDate: "Must be today's date on your device." } },
        { status: 400 },
      ),
    );
    window.dispatchEvent(new Event('online'));

    expect(await screen.findByRole('alert')).toHaveTextContent("Must be today's date on your device.");
    expect(kept(ada.id)).toEqual([]);
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Low' })).toBeEnabled();
  });

  it('Undo forgets a kept check-in: nothing is sent', async () => {
    const { user } = await checkInOffline(ada, 'Low');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(kept(ada.id)).toEqual([]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    const posted = checkins(() => HttpResponse.json(created(2), { status: 201 }));
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([]);
  });

  it("is never sent under another account: Bob's app leaves Ada's kept check-in alone", async () => {
    const { unmount } = await checkInOffline(ada, 'Low');
    unmount();
    const posted = checkins(() => HttpResponse.json(created(2), { status: 201 }));
    renderAs(bob);
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([]);
    expect(kept(ada.id)).toHaveLength(1);
  });
});
