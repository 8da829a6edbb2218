import { Route, Routes } from 'react-router';
import { act, render, screen } from '../../test-utils';
import { SubscriptionSuccessPage } from './SubscriptionSuccessPage';

function renderPage() {
  return render(
    <Routes>
      <Route path="/subscription-success" element={<SubscriptionSuccessPage />} />
      <Route path="/dashboard" element={<p>dashboard page</p>} />
    </Routes>,
    { route: '/subscription-success' },
  );
}

describe('SubscriptionSuccessPage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('thanks, counts down 10 seconds, then opens the dashboard', () => {
    renderPage();

    expect(screen.getByRole('heading', { name: /Thank You for Subscribing/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: /profile/i })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('status')).toHaveTextContent('10 seconds');

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('status')).toHaveTextContent('9 seconds');

    act(() => vi.advanceTimersByTime(8000));
    expect(screen.getByRole('status')).toHaveTextContent('1 second...');
    expect(screen.queryByText('dashboard page')).not.toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByText('dashboard page')).toBeInTheDocument();
  });
});
