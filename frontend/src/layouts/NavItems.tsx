import { Button } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { isActivePath } from './isActivePath';

/** One link of a navigation bar. */
export interface NavItem {
  label: string;
  to: string;
}

/** The header's links on wide screens, the current page highlighted. */
export function NavButtons({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation();
  return items.map((item) => {
    const active = isActivePath(pathname, item.to);
    return (
      <Button
        key={item.label}
        component={Link}
        to={item.to}
        variant={active ? 'light' : 'subtle'}
        aria-current={active ? 'page' : undefined}
      >
        {item.label}
      </Button>
    );
  });
}

/** The same links in the small-screen menu; choosing one closes it. */
export function NavLinks({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return items.map((item) => {
    const active = isActivePath(pathname, item.to);
    return (
      <Button
        key={item.label}
        component={Link}
        to={item.to}
        variant={active ? 'light' : 'subtle'}
        justify="flex-start"
        fullWidth
        size="md"
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
      >
        {item.label}
      </Button>
    );
  });
}
