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

/**
 * Registers /sw.js once the page has loaded (it then downloads the shell to precache, which
 * must not compete with the page's own first requests). Undefined where there are no
 * service workers, in development, or when registration fails: the app works the same.
 */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const register = () =>
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(resolve, (err: unknown) => {
        console.warn('The service worker was not registered; the app works without it.', err);
        resolve(undefined);
      });
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  });
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
