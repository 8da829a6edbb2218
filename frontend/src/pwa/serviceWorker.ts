/**
 * The page's side of the service worker (src/sw/sw.ts): registration, and telling when a
 * new version of the app is installed and waiting, so that UpdatePrompt can offer a reload.
 */

/** The parts of a ServiceWorkerRegistration used here (tests pass their own). */
export interface WorkerRegistration extends EventTarget {
  readonly waiting: ServiceWorker | null;
  readonly installing: ServiceWorker | null;
  update(): Promise<unknown>;
}

/** The parts of navigator.serviceWorker used here. */
export interface WorkerContainer extends EventTarget {
  readonly controller: ServiceWorker | null;
}

let resolveRegistration: (registration: ServiceWorkerRegistration | undefined) => void = () => undefined;

/**
 * The service worker's registration, once registerServiceWorker has been called (it stays
 * pending on a page that never registers, such as a signed-out visit's first page).
 */
export const serviceWorkerRegistration = new Promise<ServiceWorkerRegistration | undefined>((resolve) => {
  resolveRegistration = resolve;
});

let registering = false;

/**
 * Registers /sw.js, once per page, after the page has loaded (the worker then downloads the
 * whole shell to precache, which must not compete with the page's own first requests).
 *
 * The signed-in layout calls it: the installed app starts at /dashboard, and a signed-out
 * visitor of the landing page downloads only that page (its JavaScript budget), not the
 * whole app. A page that a worker already serves calls it at start (InstalledAppUpdates), so
 * an installed app looks for a new version on every page. Nothing happens in development, without service
 * workers, or when registration fails: the app works the same.
 */
export function registerServiceWorker(): void {
  if (registering) return;
  registering = true;
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) {
    resolveRegistration(undefined);
    return;
  }
  const register = () =>
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(resolveRegistration, (err: unknown) => {
      console.warn('The service worker was not registered; the app works without it.', err);
      resolveRegistration(undefined);
    });
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/**
 * Calls onWaiting with the new worker whenever a new version has installed beside the one in
 * control (never on the first install, when nothing is in control yet: that is no update).
 * Returns a function that stops watching.
 */
export function watchForUpdate(
  registration: WorkerRegistration,
  container: WorkerContainer,
  onWaiting: (worker: ServiceWorker) => void,
): () => void {
  const offered = (worker: ServiceWorker | null) => {
    if (worker && container.controller) onWaiting(worker);
  };
  offered(registration.waiting);
  const tracked: ServiceWorker[] = [];
  const onStateChange = (event: Event) => {
    const worker = event.target as ServiceWorker;
    if (worker.state === 'installed') offered(worker);
  };
  const onUpdateFound = () => {
    const worker = registration.installing;
    if (!worker) return;
    tracked.push(worker);
    worker.addEventListener('statechange', onStateChange);
  };
  registration.addEventListener('updatefound', onUpdateFound);
  return () => {
    registration.removeEventListener('updatefound', onUpdateFound);
    for (const worker of tracked) worker.removeEventListener('statechange', onStateChange);
  };
}

/**
 * Lets the waiting worker take over and reloads the page once it has: the page then runs the
 * new version. When another tab already let it take over (nothing waits any more), it only
 * reloads.
 */
export function applyUpdate(
  registration: WorkerRegistration,
  container: WorkerContainer,
  reload: () => void = () => window.location.reload(),
): void {
  const waiting = registration.waiting;
  if (!waiting) {
    reload();
    return;
  }
  container.addEventListener('controllerchange', () => reload(), { once: true });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}
