import { useDisclosure } from '@mantine/hooks';
import { useMemo, useRef, type RefObject } from 'react';

/** The small-screen menu: whether it is open, and the button that opens and closes it. */
export interface SiteMenu {
  opened: boolean;
  open: () => void;
  close: () => void;
  toggle: () => void;
  button: RefObject<HTMLButtonElement | null>;
}

/**
 * The small-screen menu's state, for a layout that acts on it from outside: a dialog opened
 * from the menu takes the menu's place, and gives the focus back to its button.
 */
export function useSiteMenu(): SiteMenu {
  const [opened, { open, close, toggle }] = useDisclosure(false);
  const button = useRef<HTMLButtonElement>(null);
  return useMemo(() => ({ opened, open, close, toggle, button }), [opened, open, close, toggle]);
}
