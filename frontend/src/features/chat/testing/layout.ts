/** Test helper: jsdom lays nothing out, so the chat's virtualised list needs sizes to render rows. */
import { afterAll, beforeAll } from 'vitest';

/**
 * Gives the conversation a viewport and each row a height so the virtualiser
 * decides what to render as a browser would. Call at the top of a test file.
 */
export function fakeChatLayout() {
  // jsdom lays nothing out; give the conversation a viewport and each row a height
  // so the virtualiser decides what to render as a browser would.
  const originalClientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  const originalOffsetHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
  const originalScrollHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollHeight');
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 60 });
    // The scroll height of a container is that of its content (the virtualiser's sizer).
    Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
      configurable: true,
      get(this: HTMLElement) {
        const sizer = this.firstElementChild as HTMLElement | null;
        return Math.max(parseFloat(sizer?.style.height ?? '') || 0, 600);
      },
    });
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      configurable: true,
      writable: true,
      value(this: HTMLElement, options: ScrollToOptions) {
        this.scrollTop = options.top ?? this.scrollTop;
        this.dispatchEvent(new Event('scroll'));
      },
    });
  });
  function restore(name: string, original: PropertyDescriptor | undefined) {
    if (original) Object.defineProperty(HTMLElement.prototype, name, original);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  }
  afterAll(() => {
    restore('clientHeight', originalClientHeight);
    restore('offsetHeight', originalOffsetHeight);
    restore('scrollHeight', originalScrollHeight);
    restore('scrollTo', undefined);
  });
}
