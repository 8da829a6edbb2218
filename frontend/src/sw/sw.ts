/// <reference lib="webworker" />
/**
 * The service worker, built by vite-plugin-pwa (injectManifest) into dist/sw.js.
 *
 * - It precaches the app shell (index.html and the hashed scripts, styles, fonts and icons
 *   the build lists in self.__WB_MANIFEST), so the app opens with the server unreachable.
 * - Every page navigation is answered with the precached shell, except /api (the API and its
 *   docs) and /oauth2 (third-party sign-in), which always go to the server.
 * - Nothing else is cached: API answers hold personal data and are never stored here.
 * - Where the browser has static routing (Chromium), /api and /oauth2 go to the server and the
 *   hashed files come from the precache without the worker running any of its code (see below).
 * - A new version waits until the page asks it to take over (src/pwa/serviceWorker.ts).
 * - A push message shows a notification; a click on it opens the check-in card.
 */
import { cacheNames } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { appPath, openFromNotification, readPush } from './notifications';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** A rule of the ServiceWorker static routing API (InstallEvent.addRoutes; not in TypeScript's lib yet). */
interface RouterRule {
  condition: { urlPattern: string };
  source: 'network' | { cacheName: string };
}
type InstallWithRoutes = ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> };

/**
 * Rules the browser applies before it would wake the worker (issue 36, item 9). A script the
 * worker's fetch handler answers gets no V8 code cache in Chromium: on a phone with a slowed CPU
 * the installed app compiled all of its code on every start, where a return visit from the HTTP
 * cache reused the compiled code, and was the slower of the two. The hashed files (scripts,
 * styles, fonts; every one precached under its own URL) are now read from the precache by the
 * browser itself, and a miss goes to the server; the API and sign-in, which the worker never
 * answered, no longer wait for it either. Navigations still get the shell from the fetch handler.
 * A browser without static routing uses the fetch handler for everything, as before.
 */
self.addEventListener('install', (event) => {
  const install = event as InstallWithRoutes;
  if (typeof install.addRoutes !== 'function') return;
  install.waitUntil(
    install
      .addRoutes([
        { condition: { urlPattern: '/api/*' }, source: 'network' },
        { condition: { urlPattern: '/oauth2/*' }, source: 'network' },
        { condition: { urlPattern: '/assets/*' }, source: { cacheName: cacheNames.precache } },
      ])
      .catch(() => {}), // a rule the browser refuses leaves the fetch handler in charge
  );
});

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
