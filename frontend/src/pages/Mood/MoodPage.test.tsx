import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import type { Checkin, CheckinSummary, SessionListItem } from '../../api/gen/model';
import { aCheckin, aCheckinSummary, aSession, render, screen, server, within } from '../../test-utils';
import { MoodPage } from './MoodPage';

const today = '2026-11-29';

type Day = { date: string; mood: number; count: number };

/** A summary with the days given; a free account's (no tags) unless tags are given. */
function summary(perDay: Day[], overrides: Partial<CheckinSummary> = {}): CheckinSummary {
  return aCheckinSummary({
    perDay,
    daysThisMonth: perDay.filter((d) => d.date.startsWith('2026-11')).length,
    weekdays: [
      { weekday: 5, mood: 4, count: 1 },
      { weekday: 6, mood: 2, count: 1 },
    ],
    ...overrides,
  });
}

/** A check-in made on `localDate` at `time` (local). */
function checkinAt(overrides: Partial<Checkin> & { localDate: string; time: string }): Checkin {
  const { time, ...rest } = overrides;
  return aCheckin({ createdAt: new Date(`${overrides.localDate}T${time}`).toISOString(), ...rest });
}

const forbidden = () =>
  HttpResponse.json({ code: 'FORBIDDEN', error: 'Forbidden', message: 'Part of a paid plan.' }, { status: 403 });

/** The answers the page asks for; a free account's by default (403 for the year and its tag patterns). */
function answers({
  month,
  year = 'forbidden',
  checkinsOn = {},
  sessions = [],
}: {
  month: CheckinSummary;
  year?: CheckinSummary | 'forbidden';
  checkinsOn?: Record<string, Checkin[]>;
  sessions?: SessionListItem[];
}) {
  server.use(
    http.get('*/api/checkins/summary', ({ request }) => {
      const params = new URL(request.url).searchParams;
      // The summary ends on the reader's own today.
      expect(params.get('today')).toBe(today);
      if (params.get('days') === '30') return HttpResponse.json(month);
      return year === 'forbidden' ? forbidden() : HttpResponse.json(year);
    }),
    http.get('*/api/checkins', ({ request }) => {
      const params = new URL(request.url).searchParams;
      expect(params.get('to')).toBe(params.get('from'));
      return HttpResponse.json(checkinsOn[params.get('from')!] ?? []);
    }),
    http.get('*/api/chat/sessions', () => HttpResponse.json(sessions)),
  );
}

function renderPage() {
  return render(
    <Routes>
      <Route path="/mood" element={<MoodPage />} />
    </Routes>,
    { route: '/mood' },
  );
}

describe('MoodPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date(`${today}T12:00:00`));
  });
  afterEach(() => vi.useRealTimers());

  it("shows today's check-in on the month calendar, with a sentence and a table for each chart", async () => {
    answers({ month: summary([{ date: '2026-11-28', mood: 4, count: 1 }, { date: today, mood: 2, count: 2 }]) });
    const { user, container } = renderPage();

    const month = await screen.findByRole('region', { name: 'This month' });
    expect(within(month).getByText('Days you checked in this month: 2')).toBeInTheDocument();
    expect(container.querySelector(`[data-date="${today}"]`)).toHaveAttribute('data-mood', '2');
    expect(container.querySelector('[data-date="2026-11-28"]')).toHaveAttribute('data-mood', '4');
    expect(within(month).getByText('November 2026: you checked in on 2 days.')).toBeInTheDocument();
    await user.click(within(month).getByText('Show as a table'));
    const rows = within(within(month).getByRole('table', { name: 'Moods in November 2026' })).getAllByRole('row');
    expect(rows.slice(1).map((r) => r.textContent)).toEqual(['Saturday 28 November4 (Good)', 'Sunday 29 November2 (Low)']);
    // The key names each colour with its number and word.
    expect(within(within(month).getByRole('list', { name: 'Mood key' })).getAllByRole('listitem')).toHaveLength(5);

    // The sections under the month follow it a frame later.
    const trend = await screen.findByRole('region', { name: 'The last 30 days' });
    expect(within(trend).getByText('The last 30 days: 2 days checked in, a mean mood of 3, from 2 to 4.')).toBeInTheDocument();
    const weekdays = screen.getByRole('region', { name: 'Your days of the week' });
    expect(
      within(weekdays).getByText('On average your best day is Saturday (4) and your hardest is Sunday (2).'),
    ).toBeInTheDocument();
  });

  it('gives a free account a calm line about the year and the tag patterns, not an error', async () => {
    answers({ month: summary([{ date: today, mood: 3, count: 1 }]) });
    renderPage();

    const year = await screen.findByRole('region', { name: 'Your year' });
    expect(await within(year).findByText('Your whole year, day by day, comes with a paid plan.')).toBeInTheDocument();
    expect(within(year).getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/about');
    const tags = screen.getByRole('region', { name: 'What goes with your better days' });
    expect(
      within(tags).getByText('The tags that go with your better and harder days come with a paid plan.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a paid account its year in pixels and the tags that go with better and harder days', async () => {
    const days = [{ date: '2026-03-02', mood: 5, count: 1 }, { date: today, mood: 3, count: 1 }];
    answers({
      month: summary([{ date: today, mood: 3, count: 1 }]),
      year: summary(days, {
        days: 365,
        tags: [
          { tag: 'exercise', withMood: 4.2, withCount: 5, withoutMood: 3, withoutCount: 10 },
          { tag: 'exams', withMood: 2, withCount: 7, withoutMood: 3.8, withoutCount: 8 },
        ],
      }),
    });
    const { container } = renderPage();

    const year = await screen.findByRole('region', { name: 'Your year' });
    expect(await within(year).findByText('The last 365 days: you checked in on 2 days.')).toBeInTheDocument();
    expect(container.querySelector('[data-testid="year-pixels"] [data-days~="2026-03-02"]')).toHaveAttribute('data-mood', '5');
    const tags = screen.getByRole('region', { name: 'What goes with your better days' });
    expect(within(tags).getByText('Exercise: 4.2 with it (5 check-ins), 3 without (10 check-ins)')).toBeInTheDocument();
    expect(within(tags).getByText('Exams: 2 with it (7 check-ins), 3.8 without (8 check-ins)')).toBeInTheDocument();
  });

  it('looks back a month and a year, with that day’s check-ins and conversations', async () => {
    answers({
      month: summary([{ date: today, mood: 3, count: 1 }]),
      checkinsOn: {
        '2026-10-29': [
          checkinAt({
            localDate: '2026-10-29',
            time: '09:15:00',
            mood: 2,
            emotions: ['anxiety'],
            tags: ['exams'],
            note: 'Statistics tomorrow.',
          }),
        ],
      },
      sessions: [
        aSession({ title: 'Before the statistics exam', updatedAt: new Date('2026-10-29T20:00:00').toISOString() }),
      ],
    });
    renderPage();

    const monthAgo = await screen.findByRole('article', { name: 'A month ago, Thursday 29 October' });
    expect(await within(monthAgo).findByText('09:15: feeling low (2) · anxiety, exams · “Statistics tomorrow.”')).toBeInTheDocument();
    expect(within(monthAgo).getByText('You talked about: Before the statistics exam')).toBeInTheDocument();
    const yearAgo = screen.getByRole('article', { name: 'A year ago, Saturday 29 November' });
    expect(within(yearAgo).getByText('Nothing from that day.')).toBeInTheDocument();
  });

  it('invites the first check-in when there is none yet', async () => {
    answers({ month: summary([]) });
    renderPage();

    expect(await screen.findByRole('heading', { name: 'Your moods will gather here' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Make your first check-in' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('region', { name: 'This month' })).not.toBeInTheDocument();
  });
});
