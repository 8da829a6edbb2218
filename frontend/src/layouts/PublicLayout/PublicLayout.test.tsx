import { delay, http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { aUser, render, screen, server, setSupportEmail, within } from '../../test-utils';
import { setTokens } from '../../auth/storage';
import { content } from '../../content/content';
import { PublicLayout } from './PublicLayout';

function renderLayout() {
  return render(
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path="/about" element={<p>about content</p>} />
      </Route>
    </Routes>,
    { route: '/about' },
  );
}

function mainNav() {
  // The header nav (desktop); the burger drawer repeats the same links.
  return screen.getAllByRole('navigation', { name: 'Main' })[0];
}

describe('PublicLayout', () => {
  it('offers Login and sends "Try the AI" to /chat when signed out', () => {
    renderLayout();

    const nav = within(mainNav());
    expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(nav.getByRole('link', { name: 'Try the AI' })).toHaveAttribute('href', '/chat');
    expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Team' })).toHaveAttribute('href', '/team');
    expect(nav.getByRole('link', { name: 'Policies' })).toHaveAttribute('href', '/privacy');
    expect(screen.getAllByRole('link', { name: 'Login' })[0]).toHaveAttribute('href', '/login');
    expect(screen.getByText('about content')).toBeInTheDocument();
  });

  it('offers Dashboard and sends "Try the AI" to /dashboard when signed in', async () => {
    setTokens('a', 'r');
    server.use(http.get('/api/auth/me', () => HttpResponse.json(aUser())));

    renderLayout();

    expect((await screen.findAllByRole('link', { name: 'Dashboard' }))[0]).toHaveAttribute('href', '/dashboard');
    expect(within(mainNav()).getByRole('link', { name: 'Try the AI' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('shows a spinner instead of Login while the auth state loads', async () => {
    setTokens('a', 'r');
    server.use(
      http.get('/api/auth/me', async () => {
        await delay('infinite');
        return HttpResponse.json(aUser());
      }),
    );

    renderLayout();

    expect(screen.getAllByRole('status', { name: 'Checking sign-in' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('has a labelled colour scheme toggle', () => {
    renderLayout();
    expect(screen.getByRole('button', { name: /switch to (dark|light) mode/i })).toBeInTheDocument();
  });

  it('has a footer with the three social links, the mailbox, the safety page and this year', () => {
    // The mailbox is the one the server wrote into the page (PERCOLATE_SUPPORT_EMAIL).
    setSupportEmail('care@uni.example');
    renderLayout();
    const footer = within(screen.getByRole('contentinfo'));

    expect(footer.getByRole('link', { name: 'Percolate on GitHub' })).toHaveAttribute('href', content.social.codeHosting.url);
    expect(footer.getByRole('link', { name: 'Percolate on LinkedIn' })).toHaveAttribute(
      'href',
      content.social.professionalNetwork.url,
    );
    expect(footer.getByRole('link', { name: 'Percolate on Instagram' })).toHaveAttribute(
      'href',
      content.social.photoNetwork.url,
    );
    expect(footer.getByRole('link', { name: 'care@uni.example' })).toHaveAttribute(
      'href',
      'mailto:care@uni.example',
    );
    expect(footer.getByRole('link', { name: /Safety/ })).toHaveAttribute('href', '/safety');
    expect(footer.getByText(`© ${new Date().getFullYear()} Percolate`)).toBeInTheDocument();
  });
});
