import { http, HttpResponse } from 'msw';
import {
  getCreateCheckinResponseMock,
  getListCheckinsMockHandler,
  getUpdateCheckinResponseMock,
} from '../../api/gen/checkins/checkins.msw';
import type { CheckinRequest, CheckinUpdate } from '../../api/gen/model';
import { resourcesFor } from '../safety/fixtures';
import { aCheckin, render, screen, server, waitFor, within } from '../../test-utils';
import { CheckinCard } from './CheckinCard';
import { localDate, moods } from './moods';

vi.mock('../safety/proposeCountry', () => ({ browserCountry: () => 'GB', proposeCountry: () => 'GB' }));

const saved = (mood: number, over: Partial<ReturnType<typeof getCreateCheckinResponseMock>> = {}) =>
  getCreateCheckinResponseMock({
    safety: undefined,
    lowStreak: undefined,
    ...over,
    checkin: aCheckin({ id: 'c1', mood: mood as 1 }),
  });

function answerResources() {
  server.use(
    http.get('*/api/public/safety-resources', ({ request }) =>
      HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
    ),
  );
}

/** Today's check-ins as the server lists them; records what the card asked for. */
function answerToday(list: ReturnType<typeof aCheckin>[]) {
  const asked: string[] = [];
  server.use(
    getListCheckinsMockHandler(({ request }) => {
      asked.push(new URL(request.url).search);
      return list;
    }),
  );
  return asked;
}

// No check-in yet today, unless a test says otherwise.
beforeEach(() => answerToday([]));

describe('CheckinCard', () => {
  it("opens folded to one line once the user has checked in today; Check in again brings the moods back", async () => {
    const asked = answerToday([aCheckin({ mood: 4, localDate: localDate() })]);
    const { user } = render(<CheckinCard />);

    expect(await screen.findByRole('heading', { name: 'Checked in today: good' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Your mood' })).not.toBeInTheDocument();
    const today = localDate();
    expect(asked).toEqual([`?from=${today}&to=${today}&limit=1`]);

    await user.click(screen.getByRole('button', { name: 'Check in again' }));

    expect(screen.getByRole('heading', { name: 'How are you right now?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Good' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('stays open when a reminder brings the user to check in, even after a check-in today', async () => {
    const asked = answerToday([aCheckin({ mood: 2, localDate: localDate() })]);
    render(<CheckinCard />, { route: '/dashboard#checkin' });
    await waitFor(() => expect(asked).toHaveLength(1));
    // The answer has had time to arrive and render.
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(screen.getByRole('button', { name: moods[0]!.label })).toHaveFocus();
    expect(screen.queryByRole('heading', { name: /Checked in today/ })).not.toBeInTheDocument();
  });

  it('is the target of /dashboard#checkin, which a reminder opens: its first mood takes focus', () => {
    render(<CheckinCard />, { route: '/dashboard#checkin' });
    expect(screen.getByTestId('checkin-card')).toHaveAttribute('id', 'checkin');
    expect(screen.getByRole('button', { name: moods[0]!.label })).toHaveFocus();
  });

  it('stores the mood in one tap, and Undo deletes it', async () => {
    const posted: CheckinRequest[] = [];
    let deleted = '';
    server.use(
      http.post('/api/checkins', async ({ request }) => {
        posted.push((await request.json()) as CheckinRequest);
        return HttpResponse.json(saved(2), { status: 201 });
      }),
      http.delete('/api/checkins/:id', ({ params }) => {
        deleted = params.id as string;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = render(<CheckinCard />);
    expect(screen.getByRole('heading', { name: 'How are you right now?' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Low' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Saved: low. Thanks for checking in.');
    expect(posted).toEqual([{ mood: 2, localDate: localDate(), clientId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(screen.getByRole('button', { name: 'Low' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Undo' }));

    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(deleted).toBe('c1');
    expect(screen.getByRole('button', { name: 'Low' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Great' })).toBeEnabled();
  });

  it('adds emotions, tags and a note; a risky note shows the support lines at once', async () => {
    const patched: CheckinUpdate[] = [];
    answerResources();
    server.use(
      http.post('/api/checkins', () => HttpResponse.json(saved(1), { status: 201 })),
      http.patch('/api/checkins/:id', async ({ request }) => {
        patched.push((await request.json()) as CheckinUpdate);
        return HttpResponse.json(getUpdateCheckinResponseMock({ ...saved(1), safety: { category: 'suicide' } }));
      }),
    );
    const { user } = render(<CheckinCard />);
    await user.click(screen.getByRole('button', { name: 'Very low' }));
    await screen.findByRole('status');

    await user.click(within(screen.getByRole('group', { name: 'Emotions (up to 5)' })).getByRole('checkbox', { name: 'Tiredness' }));
    await user.click(within(screen.getByRole('group', { name: "What it's about (up to 8)" })).getByRole('checkbox', { name: 'Alone time' }));
    await user.type(screen.getByRole('textbox', { name: 'A note, if you like' }), 'I do not want to be here anymore');
    await user.click(screen.getByRole('button', { name: 'Add to check-in' }));

    expect(await screen.findByText('Support lines')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Call 116 123 (Samaritans)' })).toHaveAttribute('href', 'tel:116123');
    expect(patched).toEqual([{ emotions: ['tiredness'], tags: ['alone time'], note: 'I do not want to be here anymore' }]);
    expect(screen.getByText('Added to your check-in.')).toBeInTheDocument();
  });

  it('shows the gentle card after three very low check-ins, inside the card', async () => {
    answerResources();
    server.use(http.post('/api/checkins', () => HttpResponse.json(saved(1, { lowStreak: true }), { status: 201 })));
    const { user } = render(<CheckinCard />);
    await user.click(screen.getByRole('button', { name: 'Very low' }));

    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('These last few check-ins sound hard');
    expect(within(note).getByRole('link', { name: 'findahelpline.com' })).toBeInTheDocument();
    expect(within(note).getByRole('button', { name: 'Talk it through with Percolate' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('checkin-card')).toContainElement(note);
  });

  it("says the server's reason when the check-in is refused, and keeps the mood choosable", async () => {
    const message = "That's a lot of check-ins in a short while. Please take a breath and try again in a little while.";
    server.use(
      http.post('/api/checkins', () =>
        HttpResponse.json({ code: 'RATE_LIMITED', error: message, message }, { status: 429, headers: { 'Retry-After': '60' } }),
      ),
    );
    const { user } = render(<CheckinCard />);
    await user.click(screen.getByRole('button', { name: 'Good' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Good' })).toBeEnabled();
  });
});
