import { lazy, type ComponentType } from 'react';

type Module<T> = { default: T };

/**
 * React's lazy(), but a component whose code is already in renders at once. A lazy component
 * suspends on its first render even when its module has loaded (a promise settles later), so the
 * nearest fallback is shown; and React holds every reveal back until 300 ms after the last
 * fallback came or went (its reveal throttle). Each lazily loaded level of a screen then cost up
 * to 300 ms, with the code and the data long in. `preload()` fetches the module; once it has
 * resolved, a first render takes it without suspending.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- lazy()'s own bound: any props
export function lazyNow<T extends ComponentType<any>>(load: () => Promise<Module<T>>) {
  let loaded: Module<T> | undefined;
  let pending: Promise<Module<T>> | undefined;
  const preload = () => (pending ??= load().then((m) => (loaded = m)));
  // A thenable that is already settled calls back at once, and lazy() then renders it.
  const resolved = (m: Module<T>) => ({ then: (done: (m: Module<T>) => void) => done(m) }) as unknown as Promise<Module<T>>;
  return Object.assign(
    lazy(() => (loaded ? resolved(loaded) : preload())),
    { preload },
  );
}
