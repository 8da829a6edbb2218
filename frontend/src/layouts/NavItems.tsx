import { Button } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { isActivePath } from './isActivePath';

/** One link of a navigation bar. */
export interface NavItem {
  label: string;
  to: string;
}

interface NavButtonsProps {
  items: NavItem[];
  /** The small-screen menu's layout: full width, left-aligned, one under another. */
  stacked?: boolean;
  /** Runs when a link is chosen, even the current page's (the menu closes). */
  onNavigate?: () => void;
}

/** A navigation bar's links, the current page highlighted. */
export function NavButtons({ items, stacked = false, onNavigate }: NavButtonsProps) {
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
        onClick={onNavigate}
        justify={stacked ? 'flex-start' : undefined}
        fullWidth={stacked}
        size={stacked ? 'md' : undefined}
      >
        {item.label}
      </Button>
    );
  });
}
