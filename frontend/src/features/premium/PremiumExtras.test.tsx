import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test-utils/render';
import { server } from '../../test-utils/server';
import { PremiumExtras } from './PremiumExtras';

const report = {
  id: '5b1f0c7e-1111-4c1e-9a44-000000000001',
  weekStart: '2026-11-16',
  sessionCount: 3,
  emotions: [
    { emotion: 'anxiety', count: 2 },
    { emotion: 'calm', count: 1 },
  ],
  themes: ['exams', 'sleep'],
  suggestion: 'Pick one small pause each day.',
  createdAt: '2026-11-23T08:00:00Z',
};

function api({ reports = [report], invite = 200 }: { reports?: (typeof report)[] | 'error'; invite?: number } = {}) {
  server.use(
    http.get('*/api/insights/weekly', () =>
      reports === 'error' ? HttpResponse.json({ code: 'INTERNAL_ERROR' }, { status: 500 }) : HttpResponse.json(reports),
    ),
    http.get('*/api/subscription/community', () =>
      invite === 200
        ? HttpResponse.json({ url: 'https://community.example/join' })
        : HttpResponse.json({ code: 'NO_COMMUNITY', error: 'x', message: 'x' }, { status: invite }),
    ),
  );
}

describe('PremiumExtras', () => {
  it('renders nothing and calls nothing for other roles', () => {
    // No handlers: any request would fail the test.
    for (const role of ['USER', 'BASIC', undefined]) {
      const { unmount } = renderWithProviders(<PremiumExtras role={role} />);
      expect(screen.queryByRole('heading')).toBeNull();
      expect(screen.queryByText('Loading your weekly reports...')).toBeNull();
      unmount();
    }
  });

  it('shows the community invite and a report with its chart, themes and suggestion', async () => {
    api();
    renderWithProviders(<PremiumExtras role="PREMIUM" />);
    const link = await screen.findByRole('link', { name: 'Open the community' });
    expect(link).toHaveAttribute('href', 'https://community.example/join');
    expect(link).toHaveAttribute('target', '_blank');

    const card = (await screen.findByRole('heading', { name: 'Week of November 16' })).closest('article')!;
    expect(within(card).getByText('3 conversations finished')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: /anxiety: 2, calm: 1/ })).toBeInTheDocument();
    expect(within(card).getAllByTestId('emotion-bar')).toHaveLength(2);
    expect(within(card).getByText('exams')).toBeInTheDocument();
    expect(within(card).getByText('Pick one small pause each day.')).toBeInTheDocument();
  });

  it('explains an empty history and a community not set up yet', async () => {
    api({ reports: [], invite: 404 });
    renderWithProviders(<PremiumExtras role="PREMIUM" />);
    expect(await screen.findByText(/first weekly report arrives/)).toBeInTheDocument();
    expect(await screen.findByText('Your community space is being set up. Check back soon.')).toBeInTheDocument();
  });

  it('offers Retry when reports fail to load', async () => {
    api({ reports: 'error' });
    const { user } = renderWithProviders(<PremiumExtras role="ADMIN" />);
    expect(await screen.findByText('Failed to load weekly reports')).toBeInTheDocument();
    api();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Week of November 16' })).toBeInTheDocument();
  });
});
