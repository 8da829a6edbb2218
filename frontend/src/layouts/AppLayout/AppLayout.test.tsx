import { Route, Routes } from 'react-router';
import { render, screen, within } from '../../test-utils';
import { AuthContext, type AuthContextValue } from '../../auth/AuthContext';
import { AppLayout } from './AppLayout';

const signedIn: AuthContextValue = {
  status: 'authenticated',
  user: null,
  signIn: () => {},
  clearSession: () => {},
  offline: false,
  logout: async () => {},
};

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
    // The weekly reports are one tap away (issue 36).
    expect(links.getByRole('link', { name: 'Your insights' })).toHaveAttribute('href', '/insights');

    await user.click(links.getByRole('link', { name: 'Profile' }));
    expect(screen.getByText('profile content')).toBeInTheDocument();
    expect(drawer).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Open navigation' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('offers a new chat and Logout in the small-screen menu', async () => {
    const logout = vi.fn<(after?: () => void) => Promise<void>>(async (after) => after?.());
    const { user } = render(
      <AuthContext.Provider value={{ ...signedIn, logout }}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="/dashboard" element={<p>dashboard content</p>} />
            <Route path="/chat/:sessionId?" element={<p>chat content</p>} />
          </Route>
          <Route path="/" element={<p>home content</p>} />
        </Routes>
      </AuthContext.Provider>,
      { route: '/dashboard' },
    );
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = within(screen.getAllByRole('navigation', { name: 'Account' })[1]);
    expect(drawer.getByRole('link', { name: 'New chat' })).toHaveAttribute('href', '/chat');

    await user.click(drawer.getByRole('button', { name: 'Logout' }));
    expect(logout).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('home content')).toBeInTheDocument();
  });

  it("says 'Failed to logout' in the menu when the server call fails", async () => {
    const logout = vi.fn(async () => {
      throw new Error('offline');
    });
    const { user } = render(
      <AuthContext.Provider value={{ ...signedIn, logout }}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="/dashboard" element={<p>dashboard content</p>} />
          </Route>
        </Routes>
      </AuthContext.Provider>,
      { route: '/dashboard' },
    );
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = within(screen.getAllByRole('navigation', { name: 'Account' })[1]);
    await user.click(drawer.getByRole('button', { name: 'Logout' }));
    expect(await drawer.findByRole('alert')).toHaveTextContent('Failed to logout');
    expect(drawer.getByRole('button', { name: 'Logout' })).toBeEnabled();
  });
});
