import { Route, Routes } from 'react-router';
import { render, screen, within } from '../../test-utils';
import { AppLayout } from './AppLayout';

describe('AppLayout', () => {
  it('links the brand home and highlights the active section', () => {
    render(
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/profile" element={<p>profile content</p>} />
        </Route>
      </Routes>,
      { route: '/profile' },
    );

    expect(screen.getByRole('link', { name: 'Percolate home' })).toHaveAttribute('href', '/');
    const nav = within(screen.getAllByRole('navigation', { name: 'Account' })[0]);
    expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(screen.getByText('profile content')).toBeInTheDocument();
  });
});
