import { lazy, Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { Providers } from './Providers';

// A page that the installed app's service worker serves watches for a new version of the app
// ("A new version is ready"). Only such a page downloads that code: a first visit, which no
// worker serves yet, stays within the landing page's budget. The signed-in layout installs
// the worker (src/pwa/serviceWorker.ts).
const InstalledAppUpdates = lazy(() =>
  import('../pwa/UpdatePrompt').then((m) => ({ default: m.InstalledAppUpdates })),
);
const installed = typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      {installed && (
        <Suspense fallback={null}>
          <InstalledAppUpdates />
        </Suspense>
      )}
    </Providers>
  );
}
