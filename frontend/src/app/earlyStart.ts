/**
 * Loaded by the page's entry, only when an access token is stored, as the page starts (issue 36,
 * item 9): sends the signed-in screen's first requests (../api/early.ts) and fetches its code.
 * Its own chunk, so that a signed-out visit never downloads it.
 */
import { startEarlyRequests } from '../api/early';
import { SCREEN_CODE_MARK } from './screenCode';

/**
 * The code of each signed-in screen (the same modules the routes load lazily, so the same
 * chunks): downloaded with the user lookup, the layout and the forms' styles at once, rather than
 * one after the other once the user has been looked up.
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
  // The user lookup's component too: the auth state waits for it, and the app renders it only
  // once the query cache's chunk is in, which left its download last in the chain (a round trip
  // on a first visit). The query cache's chunk is here for the mark below: the auth provider has
  // asked for it already.
  const parts = [
    screen,
    () => import('../auth/CurrentUser'),
    () => import('../layouts/AppLayout/AppLayout'),
    () => import('./styles.more'),
    () => import('./QueryLayer'),
  ];
  // Each import settles once its module (with its style sheets) has been fetched and evaluated;
  // once all have, the screen could render. The mark says when, for make bench-browser.
  Promise.all(parts.map((load) => load())).then(
    () => performance.mark(SCREEN_CODE_MARK),
    () => {}, // the route's own import reports a failure
  );
}

const path = window.location.pathname;
startEarlyRequests(path);
preloadScreen(path);
