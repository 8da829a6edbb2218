import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import type { WeeklyReport } from '../../api/gen/model';
import { OKABE_ITO } from '../../features/insights/weeks';
import { aUser, aWeeklyReport as aReport, render, screen, server, within } from '../../test-utils';
import { InsightsPage } from './InsightsPage';

const older = aReport({
  id: '5b1f0c7e-1111-4c1e-9a44-000000000002',
  weekStart: '2026-11-02',
  sessionCount: 1,
  emotions: [{ emotion: 'joy', count: 1 }],
  themes: [],
  suggestion: 'Write down what made the good moments good.',
});

function asRole(role: string) {
  server.use(getGetCurrentUserMockHandler(aUser({ role: role as 'USER' })));
}

function reportsAnswer(reports: WeeklyReport[] | 'error') {
  server.use(
    http.get('*/api/insights/weekly', () =>
      reports === 'error'
        ? HttpResponse.json({ code: 'INTERNAL_ERROR', error: 'x', message: 'x' }, { status: 500 })
        : HttpResponse.json(reports),
    ),
  );
}

function renderPage() {
  return render(
    <Routes>
      <Route path="/insights" element={<InsightsPage />} />
    </Routes>,
    { route: '/insights' },
  );
}

describe('InsightsPage', () => {
  it('shows eight weeks as a trend, one colour-blind-safe colour per feeling, and each week newest first', async () => {
    asRole('PREMIUM');
    reportsAnswer([aReport(), older]);
    renderPage();

    const trend = await screen.findByRole('img', { name: /Feelings over the last 8 weeks/ });
    expect(trend).toHaveAccessibleName(expect.stringContaining('Nov 16: anxiety 2, calm 1'));
    expect(trend).toHaveAccessibleName(expect.stringContaining('Nov 9: no report'));
    expect(trend).toHaveAccessibleName(expect.stringContaining('Nov 2: joy 1'));
    expect(trend).toHaveAccessibleName(expect.stringContaining('Sep 28: no report'));
    expect(screen.getAllByTestId('trend-week')).toHaveLength(8);

    // One colour per feeling, from the Okabe–Ito palette, the same in the chart and the key.
    const fills = new Map<string, string>();
    for (const rect of trend.querySelectorAll('rect')) fills.set(rect.dataset.emotion!, rect.getAttribute('fill')!);
    expect([...fills.keys()].sort()).toEqual(['anxiety', 'calm', 'joy']);
    expect(new Set(fills.values()).size).toBe(3);
    for (const color of fills.values()) expect(OKABE_ITO).toContain(color);
    const key = screen.getByRole('list', { name: 'Colour key' });
    expect(within(key).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['anxiety', 'calm', 'joy']);

    const weeks = screen.getAllByRole('article');
    expect(weeks).toHaveLength(2);
    const latest = within(weeks[0]);
    expect(latest.getByRole('heading', { name: 'Week of November 16' })).toBeInTheDocument();
    expect(latest.getByText('3 conversations finished')).toBeInTheDocument();
    expect(latest.getByText('anxiety (2)')).toBeInTheDocument();
    const themes = latest.getByLabelText('Themes that returned');
    expect(within(themes).getByText('exams')).toBeInTheDocument();
    expect(within(themes).getByText('roommate')).toBeInTheDocument();
    expect(within(themes).getByText('home')).toBeInTheDocument();
    expect(latest.getByText('Pick one small pause each day.')).toBeInTheDocument();
    expect(within(weeks[1]).getByRole('heading', { name: 'Week of November 2' })).toBeInTheDocument();
    expect(within(weeks[1]).getByText('1 conversation finished')).toBeInTheDocument();
  });

  it('explains when the first report arrives before there is one', async () => {
    asRole('PREMIUM');
    reportsAnswer([]);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Your first report is on its way' })).toBeInTheDocument();
    expect(
      screen.getByText(/Your first weekly report arrives after your first full week with Percolate, by Monday, \w+ \d+\./),
    ).toBeInTheDocument();
    expect(screen.getByText(/Every Monday, Percolate looks back/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start a conversation' })).toHaveAttribute('href', '/chat');
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows this week so far before its report on Monday, beside the first report on its way', async () => {
    asRole('PREMIUM');
    reportsAnswer([
      aReport({
        id: '00000000-0000-0000-0000-000000000000',
        weekStart: '2026-11-23',
        soFar: true,
        sessionCount: 2,
        themes: ['football'],
        suggestion: 'Plan one small thing to look forward to this week.',
      }),
    ]);
    renderPage();
    const card = (await screen.findByRole('heading', { name: 'This week so far' })).closest('article') as HTMLElement;
    expect(within(card).getByText('Since Monday, November 23: 2 conversations finished')).toBeInTheDocument();
    expect(within(card).getByText('football')).toBeInTheDocument();
    expect(within(card).getByText('One idea for the rest of the week:')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your first report is on its way' })).toBeInTheDocument();
  });

  it("shows each week's check-ins (how many, the mood range, the top tags) and nothing for a week without", async () => {
    asRole('PREMIUM');
    reportsAnswer([
      aReport({
        id: '00000000-0000-0000-0000-000000000000',
        weekStart: '2026-11-23',
        soFar: true,
        checkins: { count: 1, lowestMood: 3, highestMood: 3, tags: [] },
      }),
      aReport({
        checkins: {
          count: 4,
          lowestMood: 1,
          highestMood: 4,
          tags: [
            { tag: 'sleep', count: 3 },
            { tag: 'alone time', count: 2 },
          ],
        },
      }),
      { ...older, checkins: { count: 0, tags: [] } },
    ]);
    renderPage();
    await screen.findByRole('heading', { name: 'This week so far' });
    const [soFar, week, quiet] = screen.getAllByRole('article');
    expect(within(soFar).getByText('1 check-in, mood okay')).toBeInTheDocument();
    expect(within(soFar).queryByLabelText('What your check-ins were about')).toBeNull();
    expect(within(week).getByText('4 check-ins, mood from very low to good')).toBeInTheDocument();
    const tags = within(week).getByLabelText('What your check-ins were about');
    expect(within(tags).getAllByText(/\(\d\)$/).map((b) => b.textContent)).toEqual(['sleep (3)', 'alone time (2)']);
    // A week without check-ins is not remarked on.
    expect(quiet).not.toHaveTextContent(/check-in|missed/i);
  });

  it('offers Retry when the reports fail to load', async () => {
    asRole('ADMIN');
    reportsAnswer('error');
    const { user } = renderPage();
    expect(await screen.findByText('Failed to load weekly reports')).toBeInTheDocument();
    reportsAnswer([aReport()]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Week of November 16' })).toBeInTheDocument();
  });

  it.each(['USER', 'BASIC'])('tells %s what Premium adds, and asks the server for no report', async (role) => {
    asRole(role);
    // No reports handler: a request for them would fail the test.
    renderPage();
    expect(await screen.findByText('Weekly insight reports are part of the Premium plan.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/about');
    // The mood page is for every role.
    expect(screen.getByRole('link', { name: 'See your moods over time' })).toHaveAttribute('href', '/mood');
  });
});
