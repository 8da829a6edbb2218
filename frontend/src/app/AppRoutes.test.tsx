import { http, HttpResponse } from 'msw';
import { aUser, render, screen, server } from '../test-utils';
import { setTokens } from '../auth/storage';
import { AppRoutes } from './AppRoutes';

describe('AppRoutes', () => {
  it('sends an unknown path to the 404 page', async () => {
    render(<AppRoutes />, { route: '/this-does-not-exist' });

    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText("Oops! The page you're looking for doesn't exist or has been moved."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/team#contact');
  });

  it('shows the 401 page with its actions', async () => {
    render(<AppRoutes />, { route: '/error/401' });

    expect(await screen.findByRole('heading', { name: 'Unauthorized Access' })).toBeInTheDocument();
    expect(
      screen.getByText("You don't have permission to access this resource. Please log in to continue."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/team#contact');
  });

  it('sends a signed-out visitor of /profile to the login page', async () => {
    server.use(http.get('/api/public/config', () => HttpResponse.json({ offlineCompanion: true })));
    render(<AppRoutes />, { route: '/profile' });

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('opens a protected page in the signed-in layout when the token is good', async () => {
    setTokens('good', 'r');
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser())),
      http.get('/api/public/config', () => HttpResponse.json({ offlineCompanion: true })),
    );

    render(<AppRoutes />, { route: '/chat' });

    expect(await screen.findByRole('heading', { name: 'New Chat' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Dashboard' }).length).toBeGreaterThan(0);
  });
});
