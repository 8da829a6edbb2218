import { SiteShell } from '../SiteShell/SiteShell';

const items = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Profile', to: '/profile' },
];

/**
 * The signed-in pages' navigation bar (spec §2): the brand links home, and
 * Dashboard and Profile sit in the header on wide screens and behind a menu
 * button on small ones, the current one highlighted.
 */
export function AppLayout() {
  return <SiteShell label="Account" items={items} />;
}
