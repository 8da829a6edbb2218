import { http, HttpResponse } from 'msw';
import appRoutes from './AppRoutes.tsx?raw';
import { setSession } from '../auth/storage';
import { aUser } from '../test-utils/fixtures';
import { server } from '../test-utils/server';

/**
 * earlyStart is what the page's entry loads, when signed in, before React renders (issue 36,
 * item 9): each signed-in screen's first GETs and its code (the screen, the user lookup, the
 * layout, the forms' styles) start at once instead of one after the other. Dropping any of them
 * only makes the page slower, which no other test sees: this one names each of them, per route.
 */

// Each chunk the early start may load, mocked afresh for each page opened so that the test sees
// the import (the path must be the one the routes load lazily: another module is another chunk).
const CHUNKS: Record<string, string> = {
  DashboardPage: '../pages/Dashboard/DashboardPage',
  ChatPage: '../pages/Chat/ChatPage',
  ProfilePage: '../pages/Profile/ProfilePage',
  InsightsPage: '../pages/Insights/InsightsPage',
  MoodPage: '../pages/Mood/MoodPage',
  CurrentUser: '../auth/CurrentUser',
  AppLayout: '../layouts/AppLayout/AppLayout',
  'styles.more': './styles.more',
};
const loaded: string[] = [];

// As long as the rest of the suite waits on a loaded machine (setup.ts): only a failure waits it out.
const WAIT = { timeout: 20_000, interval: 20 };

const SESSION_ID = '0b6d2f7e-4c1a-4a53-9d0e-5f3b2a1c9e88';
/** Loaded with every signed-in screen. */
const SHARED = ['AppLayout', 'CurrentUser', 'styles.more'];

/** Each signed-in route: what the early start must ask for, and the chunks it must load. */
const SIGNED_IN: { route: string; path: string; requests: string[]; chunk: string }[] = [
  { route: 'dashboard', path: '/dashboard', requests: ['/api/auth/me', '/api/profile', '/api/chat/sessions'], chunk: 'DashboardPage' },
  { route: 'chat/:sessionId?', path: '/chat', requests: ['/api/auth/me', '/api/profile'], chunk: 'ChatPage' },
  {
    route: 'chat/:sessionId?',
    path: `/chat/${SESSION_ID}`,
    requests: ['/api/auth/me', '/api/profile', `/api/chat/sessions/${SESSION_ID}`],
    chunk: 'ChatPage',
  },
  { route: 'profile', path: '/profile', requests: ['/api/auth/me', '/api/profile'], chunk: 'ProfilePage' },
  { route: 'insights', path: '/insights', requests: ['/api/auth/me', '/api/profile'], chunk: 'InsightsPage' },
  { route: 'mood', path: '/mood', requests: ['/api/auth/me', '/api/profile'], chunk: 'MoodPage' },
];

/** Answers every GET the early start may send, recording the path and the token it carried. */
function recordRequests() {
  const seen: string[] = [];
  server.use(
    http.get('/api/*', ({ request }) => {
      const url = new URL(request.url);
      seen.push(`${url.pathname}${url.search} ${request.headers.get('Authorization')}`);
      return HttpResponse.json({});
    }),
  );
  return seen;
}

/** Loads the entry's early start afresh on `path`, as a page opened there would. */
async function openAt(path: string) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  loaded.length = 0;
  for (const [name, module] of Object.entries(CHUNKS)) {
    vi.doMock(module, () => (loaded.push(name), {}));
  }
  await import('./earlyStart');
}

describe('the early start of a signed-in page', () => {
  it('covers every signed-in route of AppRoutes', () => {
    // The routes inside the ProtectedRoute element: a new signed-in screen needs its early start.
    const signedIn = appRoutes.slice(appRoutes.indexOf('<ProtectedRoute>'));
    const routes = [...signedIn.matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]).filter((r) => r !== '*');
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(SIGNED_IN.map((r) => r.route))).toEqual(new Set(routes));
  });

  it.each(SIGNED_IN)('on $path asks for $requests with the stored token, and loads $chunk with the shared chunks', async ({ path, requests, chunk }) => {
    setSession({ accessToken: 'early-token', refreshToken: 'r', user: aUser() });
    const seen = recordRequests();
    await openAt(path);
    const want = requests.map((r) => `${r} Bearer early-token`);
    await vi.waitFor(() => expect([...seen].sort()).toEqual([...want].sort()), WAIT);
    await vi.waitFor(() => expect([...loaded].sort()).toEqual([chunk, ...SHARED].sort()), WAIT);
  });

  it.each(['/', '/login', '/error/404'])('on the public page %s asks for nothing', async (path) => {
    setSession({ accessToken: 'early-token', refreshToken: 'r', user: aUser() });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await openAt(path);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });
});
