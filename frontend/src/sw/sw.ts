/// <reference lib="webworker" />
/**
 * The service worker, built by vite-plugin-pwa (injectManifest) into dist/sw.js.
 *
 * - It precaches the app shell (index.html and the hashed scripts, styles, fonts and icons
 *   the build lists in self.__WB_MANIFEST), so the app opens with the server unreachable.
 * - Every page navigation is answered with the precached shell, except /api (the API and its
 *   docs) and /oauth2 (third-party sign-in), which always go to the server.
 * - Nothing else is cached: API answers hold personal data and are never stored here.
 * - A new version waits until the page asks it to take over (src/pwa/serviceWorker.ts).
 * - A push message shows a notification; a click on it opens the check-in card.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { appPath, openFromNotification, readPush } from './notifications';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/oauth2(\/|$)/],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('push', (event) => {
  const notice = readPush(event.data?.text(), self.location.origin);
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      // One reminder at a time: a newer one replaces an older one that is still showing.
      tag: 'percolate-reminder',
      data: { url: notice.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: unknown } | null)?.url;
  event.waitUntil(openFromNotification(self.clients, self.location.origin, appPath(url, self.location.origin)));
});
