/**
 * Loaded by the page's entry, only when an access token is stored, as the page starts (issue 36,
 * item 9): sends the signed-in screen's first requests (../api/early.ts) and fetches its code.
 * Its own chunk, so that a signed-out visit never downloads it.
 */
import { startEarlyRequests } from '../api/early';

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
  // on a first visit).
  const parts = [screen, () => import('../auth/CurrentUser'), () => import('../layouts/AppLayout/AppLayout'), () => import('./styles.more')];
  for (const load of parts) {
    load().catch(() => {}); // the route's own import reports a failure
  }
}

const path = window.location.pathname;
startEarlyRequests(path);
preloadScreen(path);
