import { useRouteFocus } from './useRouteFocus';

/** useRouteFocus as a component, so that AppRoutes can load it lazily; firstPath: see the hook. */
export function RouteFocus({ firstPath }: { firstPath: string }) {
  useRouteFocus(firstPath);
  return null;
}
