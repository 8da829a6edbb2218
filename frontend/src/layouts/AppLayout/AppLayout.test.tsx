import { Route, Routes } from 'react-router';
import { render, screen, within } from '../../test-utils';
import { AppLayout } from './AppLayout';

function renderAt(route: string) {
  return render(
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/profile" element={<p>profile content</p>} />
        <Route path="/dashboard" element={<p>dashboard content</p>} />
        <Route path="/chat/:sessionId?" element={<p>chat content</p>} />
      </Route>
    </Routes>,
    { route },
  );
}

describe('AppLayout', () => {
  it('links the brand home and highlights the active section', () => {
    renderAt('/profile');

    expect(screen.getByRole('link', { name: 'Percolate home' })).toHaveAttribute('href', '/');
    const nav = within(screen.getAllByRole('navigation', { name: 'Account' })[0]);
    expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(screen.getByText('profile content')).toBeInTheDocument();
  });

  it('highlights Dashboard on the dashboard and neither on a chat', () => {
    const { unmount } = renderAt('/dashboard');
    let nav = within(screen.getAllByRole('navigation', { name: 'Account' })[0]);
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
    unmount();

    renderAt('/chat/abc');
    nav = within(screen.getAllByRole('navigation', { name: 'Account' })[0]);
    expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(nav.getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
  });

  it('collapses the links behind a menu button on small screens', async () => {
    const { user } = renderAt('/dashboard');
    const menu = screen.getByRole('button', { name: 'Open navigation' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    const drawer = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(drawer).not.toBeVisible();

    await user.click(menu);
    expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
    expect(drawer).toBeVisible();
    const links = within(drawer);
    expect(links.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');

    await user.click(links.getByRole('link', { name: 'Profile' }));
    expect(screen.getByText('profile content')).toBeInTheDocument();
    expect(drawer).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Open navigation' })).toHaveAttribute('aria-expanded', 'false');
  });
});
