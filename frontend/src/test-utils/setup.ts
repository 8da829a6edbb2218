import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './server';

// findBy… and waitFor wait for what the user would see; on a loaded 2-core machine a lazy
// route or a query can take longer than the default second to show, so they wait up to 20 s
// (a test that fails still fails, only later). 5 s was not enough at a load average of 20:
// PublicLayout's signed-in header took 7.5 s to show during a CI run beside six builds.
configure({ asyncUtilTimeout: 20_000 });

// jsdom lacks the browser APIs Mantine reads at render time.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
}

// Mantine's autosizing Textarea listens for web fonts loading (document.fonts).
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

if (!window.HTMLElement.prototype.scrollIntoView) {
  window.HTMLElement.prototype.scrollIntoView = () => {};
}

// A request no handler was declared for fails the test that made it (MSW's 'error' only logs
// it and fails the request, which the app may well tolerate): each test declares the answers it
// relies on, so an undeclared call is a test that does not know what its page asks for.
const unhandled: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
      print.error();
    },
  }),
);
afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.head.querySelectorAll('meta[name="percolate-support-email"]').forEach((meta) => meta.remove());
  const undeclared = unhandled.splice(0);
  if (undeclared.length > 0) {
    throw new Error(`requests no MSW handler was declared for: ${undeclared.join(', ')}`);
  }
});
afterAll(() => server.close());
