import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { getGetCurrentUserMockHandler } from '../../api/gen/auth/auth.msw';
import { aUser, aWeeklyReport, render, screen, server, within } from '../../test-utils';
import { DashboardCards } from './DashboardCards';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderCards() {
  return render(
    <Routes>
      <Route path="/dashboard" element={<DashboardCards />} />
      <Route path="/insights" element={<Where />} />
      <Route path="/mood" element={<Where />} />
    </Routes>,
    { route: '/dashboard' },
  );
}

function premiumApi(invite: 200 | 404) {
  server.use(
    getGetCurrentUserMockHandler(aUser({ role: 'PREMIUM' })),
    http.get('*/api/insights/weekly', () =>
      HttpResponse.json([aWeeklyReport({ emotions: [{ emotion: 'anxiety', count: 2 }] })]),
    ),
    http.get('*/api/subscription/community', () =>
      invite === 200
        ? HttpResponse.json({ url: 'https://community.example/join' })
        : HttpResponse.json({ code: 'NOT_FOUND', error: 'x', message: 'x' }, { status: 404 }),
    ),
  );
}

describe('DashboardCards', () => {
  it('gives a Premium user an insights card with last week at a glance, leading to /insights', async () => {
    premiumApi(200);
    const { user } = renderCards();
    const card = within((await screen.findByRole('heading', { name: 'Your insights' })).closest('section')!);
    expect(await card.findByText('Week of November 16: exams · roommate · home')).toBeInTheDocument();
    await user.click(card.getByRole('link', { name: 'Open your insights' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/insights');
  });

  it('puts the community invite on a card of its own', async () => {
    premiumApi(200);
    renderCards();
    const card = within((await screen.findByRole('heading', { name: 'Join the Percolate community' })).closest('section')!);
    const link = await card.findByRole('link', { name: 'Open the community' });
    expect(link).toHaveAttribute('href', 'https://community.example/join');
    expect(link).toHaveAttribute('target', '_blank');
    expect(card.queryByText(/insight/i)).toBeNull();
  });

  it('says when the community space is not set up yet', async () => {
    premiumApi(404);
    renderCards();
    expect(await screen.findByText('Your community space is being set up. Check back soon.')).toBeInTheDocument();
  });

  it.each(['USER', 'BASIC'])('tells %s that insights are Premium, with no community card and no report request', async (role) => {
    server.use(getGetCurrentUserMockHandler(aUser({ role: role as 'USER' })));
    renderCards();
    expect(
      await screen.findByText('Weekly insight reports — your feelings and themes over time — are part of the Premium plan.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open your insights' })).toHaveAttribute('href', '/insights');
    expect(screen.queryByRole('heading', { name: 'Join the Percolate community' })).toBeNull();
  });

  it('gives every role a card that leads to the mood page', async () => {
    server.use(getGetCurrentUserMockHandler(aUser({ role: 'USER' })));
    const { user } = renderCards();

    const card = await screen.findByRole('region', { name: 'Your moods' });
    await user.click(within(card).getByRole('link', { name: 'See your moods' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/mood');
  });
});
