import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { aUser, render, screen, server, validationError, waitFor, within } from '../../test-utils';
import { AuthContext, type AuthContextValue } from '../../auth/AuthContext';
import type { CheckinRequest } from '../../api/gen/model';
import { keep, kept } from '../../features/checkins/offlineQueue';
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

  describe('Logout from the menu, with check-ins kept on this device', () => {
    const ada = aUser({ id: 'a0000000-0000-4000-8000-00000000000a' });
    // Kept for weeks, the older is refused for good; the newer cannot go yet (no connection).
    const old = { mood: 2 as const, localDate: '2026-10-01', clientId: 'c0000000-0000-4000-8000-000000000001' };
    const recent = { mood: 4 as const, localDate: '2026-11-29', clientId: 'c0000000-0000-4000-8000-000000000002' };

    function renderMenu(logout: AuthContextValue['logout']) {
      const posted: string[] = [];
      server.use(
        http.post('/api/checkins', async ({ request }) => {
          const body = (await request.json()) as CheckinRequest;
          posted.push(body.clientId!);
          return body.clientId === old.clientId
            ? validationError('Invalid', { localDate: 'Must be a date in the last 7 days on your device.' })
            : HttpResponse.error();
        }),
      );
      keep(ada.id, old);
      keep(ada.id, recent);
      const view = render(
        <AuthContext.Provider value={{ ...signedIn, user: ada, logout }}>
          <Routes>
            <Route element={<AppLayout />}>
              <Route path="/dashboard" element={<p>dashboard content</p>} />
            </Route>
            <Route path="/" element={<p>home content</p>} />
          </Routes>
        </AuthContext.Provider>,
        { route: '/dashboard' },
      );
      const drawer = document.getElementById(screen.getByRole('button', { name: 'Open navigation' }).getAttribute('aria-controls')!)!;
      return { ...view, drawer, posted };
    }

    it('closes the menu as the dialog opens, says which check-ins would be lost, and Stay signed in leaves the focus on the menu button', async () => {
      const logout = vi.fn(async () => {});
      const { user, drawer, posted } = renderMenu(logout);
      await user.click(screen.getByRole('button', { name: 'Open navigation' }));
      await user.click(within(drawer).getByRole('button', { name: 'Logout' }));

      const dialog = await screen.findByRole('dialog', { name: 'Log out?' });
      expect(dialog).toHaveTextContent(
        "1 check-in on this device hasn't been sent yet, and 1 couldn't be saved (your dashboard says why). If you log out now, they will be removed from this device and lost.",
      );
      expect(drawer).not.toBeVisible();
      expect(screen.getByRole('button', { name: 'Open navigation' })).toHaveAttribute('aria-expanded', 'false');
      const stay = within(dialog).getByRole('button', { name: 'Stay signed in' });
      await waitFor(() => expect(stay).toHaveFocus());

      await user.click(stay);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByRole('button', { name: 'Open navigation' })).toHaveFocus();
      expect(screen.getByText('dashboard content')).toBeInTheDocument();
      expect(logout).not.toHaveBeenCalled();
      expect(kept(ada.id).map((k) => [k.data.clientId, !!k.refused])).toEqual([
        [old.clientId, true],
        [recent.clientId, false],
      ]);
      // The refused one was sent once; the other is tried again (on opening and at Logout).
      expect(posted.filter((id) => id === old.clientId)).toHaveLength(1);
    });

    it('logs out on "Log out anyway", the kept check-ins removed from the device', async () => {
      const logout = vi.fn<(after?: () => void) => Promise<void>>(async (after) => after?.());
      const { user, drawer } = renderMenu(logout);
      await user.click(screen.getByRole('button', { name: 'Open navigation' }));
      await user.click(within(drawer).getByRole('button', { name: 'Logout' }));
      await user.click(await screen.findByRole('button', { name: 'Log out anyway' }));

      expect(await screen.findByText('home content')).toBeInTheDocument();
      expect(logout).toHaveBeenCalledTimes(1);
      expect(kept(ada.id)).toEqual([]);
    });

    it('opens the menu again on its message, with the focus on Logout, when "Log out anyway" cannot reach the server', async () => {
      const logout = vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      });
      const { user, drawer } = renderMenu(logout);
      await user.click(screen.getByRole('button', { name: 'Open navigation' }));
      await user.click(within(drawer).getByRole('button', { name: 'Logout' }));
      await user.click(await screen.findByRole('button', { name: 'Log out anyway' }));

      expect(await within(drawer).findByRole('alert')).toHaveTextContent('Failed to logout');
      expect(drawer).toBeVisible();
      expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
      await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Logout' })).toHaveFocus());
      expect(within(drawer).getByRole('button', { name: 'Logout' })).toBeEnabled();
    });
  });
});
