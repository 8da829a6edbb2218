import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { lazyNow } from './lazyNow';

/** The cache's provider; once preloaded, it renders without suspending. */
export const QueryLayer = lazyNow(() => import('./QueryLayer'));

/**
 * Gives its children React Query's cache. The cache's code is downloaded with
 * the first screen that reads or writes server state, so the landing page and
 * the other static pages never load it. Suspends (to the nearest Suspense)
 * until it has arrived, unless it was preloaded. Without children it renders the nested routes.
 */
export function QueryScope({ children }: { children?: ReactNode }) {
  return <QueryLayer>{children ?? <Outlet />}</QueryLayer>;
}
