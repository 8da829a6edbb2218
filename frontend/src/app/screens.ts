import type { ComponentType } from 'react';
import { lazyNow } from './lazyNow';

/**
 * A lazily loaded page that also needs the Mantine styles the landing page does without
 * (forms, dialogs, menus: ./styles.more.ts). They download once, with the first such page.
 */
export function withMoreStyles<T extends ComponentType>(load: () => Promise<{ default: T }>) {
  return lazyNow(() => Promise.all([import('./styles.more'), load()]).then(([, page]) => page));
}

// The signed-in layout is its own chunk too: a public visit never needs it.
export const AppLayout = withMoreStyles(() =>
  import('../layouts/AppLayout/AppLayout').then((m) => ({ default: m.AppLayout })),
);

/** The signed-in screens, one chunk each, by the first part of their path. */
export const signedInScreens = {
  dashboard: withMoreStyles(() => import('../pages/Dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage }))),
  chat: withMoreStyles(() => import('../pages/Chat/ChatPage').then((m) => ({ default: m.ChatPage }))),
  profile: withMoreStyles(() => import('../pages/Profile/ProfilePage').then((m) => ({ default: m.ProfilePage }))),
  insights: withMoreStyles(() => import('../pages/Insights/InsightsPage').then((m) => ({ default: m.InsightsPage }))),
  // The mood page's charts come with it, in its own chunk.
  mood: withMoreStyles(() => import('../pages/Mood/MoodPage').then((m) => ({ default: m.MoodPage }))),
};

/**
 * Preloads the signed-in screen at `path` and the layout, as the page starts with a stored token
 * (src/main.tsx): once their code is in they render at once, without a fallback (./lazyNow.ts).
 * ./earlyStart.ts asks for the same modules, and marks when they are in.
 */
export function preloadScreen(path: string): void {
  const name = path.split('/')[1] ?? '';
  if (!Object.hasOwn(signedInScreens, name)) return;
  void signedInScreens[name as keyof typeof signedInScreens].preload().catch(() => {}); // the route reports a failure
  void AppLayout.preload().catch(() => {});
}
