import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a route change waits for its page's heading (a lazily loaded page, its data). */
const WAIT_MS = 10_000;

/**
 * Moves the keyboard's focus to the page's heading (the <h1> in #main-content) after every
 * route change, sign-in included, so a screen reader announces the new page and Tab starts
 * from it (issue 36). The heading gets tabIndex=-1 here, in one place. The first page of a
 * visit keeps the browser's own focus, and a page that put the focus inside itself first
 * (the chat's composer) keeps it. A page that arrives later is waited for.
 */
export function useRouteFocus() {
  const { pathname } = useLocation();
  const last = useRef(pathname);

  useEffect(() => {
    if (last.current === pathname) return;
    last.current = pathname;

    const focusHeading = (): boolean => {
      const main = document.getElementById('main-content');
      if (!main) return false;
      const active = document.activeElement;
      if (active && active !== main && main.contains(active)) return true;
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      // Not scrolled to: the page decides where it opens (an anchor such as /team#contact).
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
}
