/**
 * The first requests of a signed-in screen, sent as the page starts (issue 36, item 9). Without
 * them a screen's data waits for its code and for GET /api/auth/me in turn: on a phone with a
 * half-second round trip that chain is most of the wait. The page's entry sends them at once with
 * the stored access token; authorizedFetch then answers the same GET from here instead of asking
 * again. Nothing else changes: a failed or refused early answer is ignored and the request is
 * made as always (with its refresh on a 401).
 */
import { getAccessToken } from '../auth/storage';

interface Early {
  token: string;
  response: Promise<Response>;
  /** When the answer arrived; it serves one more caller for FRESH_MS after that. */
  settledAt?: number;
  taken: boolean;
}

/** As fresh as the query cache's own answers: after this an early answer is not used. */
const FRESH_MS = 10_000;
const early = new Map<string, Early>();

/** The GET requests each signed-in screen makes first. */
export function earlyRequestsFor(path: string): string[] {
  const chat = /^\/chat\/([0-9a-f-]{36})\/?$/i.exec(path);
  if (chat) return ['/api/auth/me', '/api/profile', `/api/chat/sessions/${chat[1]}`];
  if (/^\/dashboard\/?$/.test(path)) return ['/api/auth/me', '/api/profile', '/api/chat/sessions'];
  if (/^\/(chat|profile|insights|mood)\/?$/.test(path)) return ['/api/auth/me', '/api/profile'];
  return [];
}

/**
 * The code of each signed-in screen (the same modules the routes load lazily, so the same
 * chunks): downloaded with the layout and the forms' styles at once, rather than one after the
 * other once the user has been looked up.
 */
const SCREENS: Record<string, (() => Promise<unknown>) | undefined> = {
  dashboard: () => import('../pages/Dashboard/DashboardPage'),
  chat: () => import('../pages/Chat/ChatPage'),
  profile: () => import('../pages/Profile/ProfilePage'),
  insights: () => import('../pages/Insights/InsightsPage'),
  mood: () => import('../pages/Mood/MoodPage'),
};

function preloadScreen(path: string): void {
  const screen = SCREENS[path.split('/')[1] ?? ''];
  if (!screen) return;
  for (const load of [screen, () => import('../layouts/AppLayout/AppLayout'), () => import('../app/styles.more')]) {
    load().catch(() => {}); // the route's own import reports a failure
  }
}

/** Sends the first requests of the screen at `path`, and fetches its code, when an access token is stored. */
export function startEarlyRequests(path: string): void {
  const token = getAccessToken();
  if (!token) return;
  for (const url of earlyRequestsFor(path)) {
    const entry: Early = {
      token,
      taken: false,
      response: fetch(url, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } }),
    };
    entry.response.then(
      () => (entry.settledAt = Date.now()),
      () => early.delete(url),
    );
    early.set(url, entry);
  }
  preloadScreen(path);
}

/**
 * The early answer to a GET of `url` made with `token`, if one is there: every caller while it
 * is on its way shares it, and one caller takes it after it arrived. Each gets its own copy.
 */
export function takeEarly(url: string, token: string | null): Promise<Response> | undefined {
  const entry = early.get(url);
  if (!entry) return undefined;
  const stale = entry.settledAt !== undefined && (entry.taken || Date.now() - entry.settledAt > FRESH_MS);
  if (stale || entry.token !== token) {
    early.delete(url);
    return undefined;
  }
  entry.taken = true;
  return entry.response.then((r) => r.clone());
}

// Loaded by the page's entry, only when an access token is stored, as the page starts.
startEarlyRequests(window.location.pathname);
