import { AppShell, Burger, Button, Group, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { useAuth } from '../../auth/AuthContext';
import { Brand } from '../../components/Brand/Brand';
import { ColorSchemeToggle } from '../../components/ColorSchemeToggle/ColorSchemeToggle';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { NavButtons, NavLinks, type NavItem } from '../NavItems';
import { Footer } from './Footer';

/** The public pages' navigation bar (spec §2, landing page). */
function useNavItems(): NavItem[] {
  const { status } = useAuth();
  return [
    { label: 'Home', to: '/' },
    { label: 'Try the AI', to: status === 'authenticated' ? '/dashboard' : '/chat' },
    { label: 'About', to: '/about' },
    { label: 'Team', to: '/team' },
    { label: 'Policies', to: '/privacy' },
  ];
}

/** Login, a spinner while auth loads, or Dashboard when signed in. */
function AccountAction() {
  const { status } = useAuth();
  if (status === 'loading') {
    return <Loader size="sm" role="status" aria-label="Checking sign-in" />;
  }
  if (status === 'authenticated') {
    return (
      <Button component={Link} to="/dashboard">
        Dashboard
      </Button>
    );
  }
  return (
    <Button component={Link} to="/login">
      Login
    </Button>
  );
}

export function PublicLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const items = useNavItems();

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { desktop: true, mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Brand />
          <Group component="nav" aria-label="Main" gap={4} visibleFrom="sm" wrap="nowrap">
            <NavButtons items={items} />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <Group visibleFrom="sm">
              <AccountAction />
            </Group>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="md" aria-label="Main">
        <NavLinks items={items} onNavigate={close} />
        <Group mt="md">
          <AccountAction />
        </Group>
      </AppShell.Navbar>

      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      {/* Outside <main>, so it is the page's contentinfo landmark. */}
      <Footer />
    </AppShell>
  );
}
