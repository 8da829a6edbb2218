import { http, HttpResponse } from 'msw';
import { useListCheckins } from '../../api/gen/checkins/checkins';
import { getCreateCheckinResponseMock, getListCheckinsMockHandler } from '../../api/gen/checkins/checkins.msw';
import { getGetProfileResponseMock } from '../../api/gen/profile/profile.msw';
import type { CheckinRequest, User } from '../../api/gen/model';
import { AuthContext, type AuthContextValue } from '../../auth/AuthContext';
import { resourcesFor } from '../safety/fixtures';
import { aCheckin, aUser, render, screen, server, waitFor, within } from '../../test-utils';
import { longDay } from '../mood/dates';
import { CheckinCard } from './CheckinCard';
import { answerCheckins } from './fixtures';
import { keep, kept } from './offlineQueue';
import { localDate } from './moods';
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

/**
 * Today's check-ins as another part of the page would list them, from the card's own query: once
 * this shows, the card has had the same answer (one cache, one notification).
 */
function TodayAsListed() {
  const today = localDate();
  const listed = useListCheckins({ from: today, to: today, limit: 1 });
  return listed.data ? <p>Listed today: {listed.data.map((c) => c.mood).join(', ') || 'none'}</p> : null;
}


const created = (mood: number, over = {}) =>
  getCreateCheckinResponseMock({ safety: undefined, lowStreak: undefined, ...over, checkin: aCheckin({ id: 'c1', mood: mood as 1 }) });

async function checkInOffline(user: User, mood: string) {
  const posted = answerCheckins(() => HttpResponse.error());
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
    const again = answerCheckins(() => HttpResponse.error());
    renderAs(ada);
    await waitFor(() => expect(again).toHaveLength(1));
    expect(kept(ada.id)).toHaveLength(1);

    // Back online: sent once, with the clientId it was made with; then nothing is kept.
    const posted = answerCheckins(() => HttpResponse.json(created(2), { status: 201 }));
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

    const posted = answerCheckins(() => HttpResponse.json(created(2, { safety: { category: 'suicide' } }), { status: 201 }));
    window.dispatchEvent(new Event('online'));

    expect(await screen.findByText('Support lines')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Saved: low. Thanks for checking in.');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ mood: 2, note: 'I do not want to be here anymore' });
  });

  it('says a kept check-in was saved, with its support lines, when the app sent it before the card was there', async () => {
    server.use(
      http.get('*/api/profile', () => HttpResponse.json(getGetProfileResponseMock({ country: 'GB' }))),
      http.get('*/api/public/safety-resources', ({ request }) =>
        HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
      ),
    );
    const { user, unmount } = await checkInOffline(ada, 'Low');
    await user.type(screen.getByRole('textbox', { name: 'A note, if you like' }), 'I do not want to be here anymore');
    await user.click(screen.getByRole('button', { name: 'Add to check-in' }));
    unmount();

    // The app opens again, online: its layout sends the kept check-in while the dashboard's
    // card is still loading.
    const posted = answerCheckins(() => HttpResponse.json(created(2, { safety: { category: 'suicide' } }), { status: 201 }));
    function Layout() {
      useSendKeptCheckins();
      return null;
    }
    const layout = render(
      <AuthContext.Provider value={as(ada)}>
        <Layout />
      </AuthContext.Provider>,
    );
    await waitFor(() => expect(kept(ada.id)).toEqual([]));
    expect(posted).toHaveLength(1);
    layout.unmount();

    // Today's list has it now; the card that comes says it was saved, with the support lines.
    server.use(getListCheckinsMockHandler([aCheckin({ id: 'c1', mood: 2, localDate: localDate() })]));
    const card = renderAs(ada);
    expect(await screen.findByText('Support lines')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Saved: low. Thanks for checking in.');
    card.unmount();

    // Said once: the next time, the card folds on today's check-in.
    renderAs(ada);
    expect(await screen.findByRole('heading', { name: 'Checked in today: low' })).toBeInTheDocument();
    expect(screen.queryByText('Support lines')).not.toBeInTheDocument();
  });

  it('shows a refusal (400) once it is sent, does not send it again, and keeps it until the user discards it', async () => {
    const { user } = await checkInOffline(ada, 'Low');
    const posted = answerCheckins(() =>
      HttpResponse.json(
        { code: 'VALIDATION_ERROR', error: 'Invalid', details: { note: 'At most 500 characters.' } },
        { status: 400 },
      ),
    );
    window.dispatchEvent(new Event('online'));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Your check-in from ${longDay(localDate())} (low) couldn't be saved: At most 500 characters.`);
    expect(kept(ada.id)).toEqual([{ data: posted[0], refused: 'At most 500 characters.' }]);
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Low' })).toBeEnabled();
    // Today's date is not the reason: sending it again for today is not offered.
    expect(within(alert).queryByRole('button', { name: 'Save it for today' })).not.toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Discard' }));
    expect(kept(ada.id)).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('Undo forgets a kept check-in: nothing is sent', async () => {
    const { user } = await checkInOffline(ada, 'Low');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(kept(ada.id)).toEqual([]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    const posted = answerCheckins(() => HttpResponse.json(created(2), { status: 201 }));
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([]);
  });

  it("is never sent under another account: Bob's app leaves Ada's kept check-in alone", async () => {
    const { unmount } = await checkInOffline(ada, 'Low');
    unmount();
    const posted = answerCheckins(() => HttpResponse.json(created(2), { status: 201 }));
    renderAs(bob);
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posted).toEqual([]);
    expect(kept(ada.id)).toHaveLength(1);
  });

  it("keeps showing a check-in kept offline today when today's list brings one made on another device", async () => {
    const today = localDate();
    keep(ada.id, { mood: 2, localDate: today, clientId: 'c0000000-0000-4000-8000-00000000000c' });
    server.use(getListCheckinsMockHandler([aCheckin({ mood: 4, localDate: today })]));
    const posted = answerCheckins(() => HttpResponse.error()); // still offline for sending
    render(
      <AuthContext.Provider value={as(ada)}>
        <Dashboard />
        <TodayAsListed />
      </AuthContext.Provider>,
    );

    expect(await screen.findByText('Listed today: 4')).toBeInTheDocument();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(screen.getByRole('status')).toHaveTextContent("Saved on this device: low. It will be sent when you're back online.");
    expect(screen.queryByRole('heading', { name: /Checked in today/ })).not.toBeInTheDocument();
    expect(kept(ada.id)).toHaveLength(1);
  });

  describe('kept for days (a weekend offline)', () => {
    const daysAgo = (n: number) => {
      const d = new Date();
      d.setDate(d.getDate() - n);
      return localDate(d);
    };
    const clientId = 'd0000000-0000-4000-8000-00000000000d';

    /** POST /api/checkins as the contract says: a clientId's date up to 7 days back. Returns what is stored. */
    function server7DaysBack() {
      const stored: CheckinRequest[] = [];
      const posted: CheckinRequest[] = [];
      server.use(
        http.post('/api/checkins', async ({ request }) => {
          const body = (await request.json()) as CheckinRequest;
          posted.push(body);
          if (body.clientId && body.localDate! < daysAgo(7)) {
            return HttpResponse.json(
              { code: 'VALIDATION_ERROR', error: 'Invalid', details: { localDate: 'Must be a date in the last 7 days on your device.' } },
              { status: 400 },
            );
          }
          stored.push(body);
          return HttpResponse.json(
            getCreateCheckinResponseMock({ safety: undefined, lowStreak: undefined, checkin: aCheckin({ mood: body.mood, localDate: body.localDate }) }),
            { status: 201 },
          );
        }),
      );
      return { stored, posted };
    }

    it('sends a check-in kept two days ago, on the day it was made, and it is stored', async () => {
      keep(ada.id, { mood: 2, localDate: daysAgo(2), clientId });
      const { stored, posted } = server7DaysBack();
      renderAs(ada);

      await waitFor(() => expect(kept(ada.id)).toEqual([]));
      expect(stored).toEqual([{ mood: 2, localDate: daysAgo(2), clientId }]);
      expect(posted).toHaveLength(1);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('shows one kept too long, with the reason; Save it for today sends it dated today, with its clientId', async () => {
      keep(ada.id, { mood: 2, localDate: daysAgo(9), clientId });
      const { stored } = server7DaysBack();
      const { user } = renderAs(ada);

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(
        `Your check-in from ${longDay(daysAgo(9))} (low) couldn't be saved: Must be a date in the last 7 days on your device.`,
      );
      expect(stored).toEqual([]);
      expect(kept(ada.id)).toHaveLength(1);

      await user.click(within(alert).getByRole('button', { name: 'Save it for today' }));

      expect(await screen.findByRole('status')).toHaveTextContent('Saved: low. Thanks for checking in.');
      expect(stored).toEqual([{ mood: 2, localDate: localDate(), clientId }]);
      expect(kept(ada.id)).toEqual([]);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
