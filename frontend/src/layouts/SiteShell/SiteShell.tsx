import { Box, Burger, Group, Stack } from '@mantine/core';
import { Suspense, useEffect, useId, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Brand } from '../../components/Brand/Brand';
import { ColorSchemeToggle } from '../../components/ColorSchemeToggle/ColorSchemeToggle';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { NavButtons, type NavItem } from '../NavItems';
import classes from './SiteShell.module.css';
import { useSiteMenu, type SiteMenu } from './useSiteMenu';

interface SiteShellProps {
  /** The navigation landmark's name ("Main", "Account"). */
  label: string;
  items: NavItem[];
  /** Shown after the links: in the header on wide screens, in the menu on small ones. */
  action?: ReactNode;
  /** Shown only in the small-screen menu, under the links. */
  menuExtra?: ReactNode;
  /** The small-screen menu, when the layout acts on it (useSiteMenu); otherwise the shell's own. */
  menu?: SiteMenu;
  footer?: ReactNode;
  /** A line above the routed page (e.g. that the app is offline). */
  notice?: ReactNode;
}

/**
 * The page frame both layouts share: a sticky header with the brand, the
 * links and the colour toggle, the links behind a menu button on small
 * screens, the routed page, and an optional footer. Plain elements rather
 * than Mantine's AppShell, which is several kilobytes the landing page
 * would otherwise download before anything else.
 */
export function SiteShell({ label, items, action, menuExtra, menu, footer, notice }: SiteShellProps) {
  const ownMenu = useSiteMenu();
  const { opened, toggle, close, button } = menu ?? ownMenu;
  const menuId = useId();
  const { pathname } = useLocation();

  // Any navigation closes the menu, and so does Escape.
  useEffect(close, [pathname, close]);
  useEffect(() => {
    if (!opened) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [opened, close]);

  return (
    <>
      {/* The first stop of the keyboard: straight past the header to the page. */}
      <a href="#main-content" className={classes.skip}>
        Skip to content
      </a>
      <header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Brand />
          <Group component="nav" aria-label={label} gap={4} visibleFrom="sm" wrap="nowrap">
            <NavButtons items={items} />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            {action && <Group visibleFrom="sm">{action}</Group>}
            <Burger
              ref={button}
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls={menuId}
            />
          </Group>
        </Group>
      </header>

      {/* Collapsed, the small-screen menu is out of view and out of the tab order. */}
      <Box component="nav" aria-label={label} id={menuId} hidden={!opened} hiddenFrom="sm" className={classes.menu}>
        <Stack gap={4}>
          <NavButtons items={items} stacked onNavigate={close} />
        </Stack>
        {action && <Group mt="md">{action}</Group>}
        {menuExtra && (
          <Stack gap={4} mt="md">
            {menuExtra}
          </Stack>
        )}
      </Box>

      <main id="main-content" tabIndex={-1} className={classes.main}>
        {notice}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      {/* Outside <main>, so it is the page's contentinfo landmark. */}
      {footer}
    </>
  );
}
