import { AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useId } from 'react';
import { Outlet } from 'react-router';
import { Brand } from '../../components/Brand/Brand';
import { ColorSchemeToggle } from '../../components/ColorSchemeToggle/ColorSchemeToggle';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { NavButtons, NavLinks } from '../NavItems';

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
  const [opened, { toggle, close }] = useDisclosure(false);
  const navbarId = useId();

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { desktop: true, mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Brand />
          <Group gap="xs" wrap="nowrap">
            <Group component="nav" aria-label="Account" gap={4} visibleFrom="sm" wrap="nowrap">
              <NavButtons items={items} />
            </Group>
            <ColorSchemeToggle />
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls={navbarId}
            />
          </Group>
        </Group>
      </AppShell.Header>

      {/* Collapsed, the small-screen menu is out of view and out of the tab order. */}
      <AppShell.Navbar p="md" aria-label="Account" id={navbarId} hidden={!opened}>
        <NavLinks items={items} onNavigate={close} />
      </AppShell.Navbar>

      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
