import { act, render, screen } from '../../test-utils';
import { Reveal } from './Reveal';

type Callback = (entries: Array<{ isIntersecting: boolean }>) => void;

const observers: Array<{ callback: Callback; options?: IntersectionObserverInit; disconnected: boolean }> = [];

class FakeIntersectionObserver {
  private readonly record: (typeof observers)[number];
  constructor(callback: Callback, options?: IntersectionObserverInit) {
    this.record = { callback, options, disconnected: false };
    observers.push(this.record);
  }
  observe() {}
  unobserve() {}
  disconnect() {
    this.record.disconnected = true;
  }
}

function prefersReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion: reduce'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

describe('Reveal', () => {
  beforeEach(() => {
    observers.length = 0;
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('stays hidden until the given share is visible, then animates in once', () => {
    prefersReducedMotion(false);
    render(
      <Reveal threshold={0.2}>
        <p>feature</p>
      </Reveal>,
    );
    const block = screen.getByText('feature').parentElement as HTMLElement;

    expect(block).toHaveAttribute('data-revealed', 'false');
    expect(observers).toHaveLength(1);
    expect(observers[0].options?.threshold).toBe(0.2);

    act(() => observers[0].callback([{ isIntersecting: false }]));
    expect(block).toHaveAttribute('data-revealed', 'false');

    act(() => observers[0].callback([{ isIntersecting: true }]));
    expect(block).toHaveAttribute('data-revealed', 'true');
    expect(observers[0].disconnected).toBe(true);
  });

  it('shows content at once, with no observer, under prefers-reduced-motion', () => {
    prefersReducedMotion(true);
    render(
      <Reveal threshold={0.1}>
        <p>testimonial</p>
      </Reveal>,
    );

    expect(screen.getByText('testimonial').parentElement).toHaveAttribute('data-revealed', 'true');
    expect(observers).toHaveLength(0);
  });
});
