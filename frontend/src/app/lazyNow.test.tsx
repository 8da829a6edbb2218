import { render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { lazyNow } from './lazyNow';

const Page = () => <p>The page</p>;

function show(Component: ComponentType) {
  render(
    <Suspense fallback={<p>Loading</p>}>
      <Component />
    </Suspense>,
  );
}

describe('lazyNow', () => {
  it('renders a preloaded component at once, without its fallback', async () => {
    const Lazy = lazyNow(() => Promise.resolve({ default: Page }));
    await Lazy.preload();
    show(Lazy);
    // No await: the first commit already holds the page.
    expect(screen.getByText('The page')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('suspends like lazy() when its code is not in yet, and loads it once', async () => {
    const load = vi.fn(() => Promise.resolve({ default: Page }));
    const Lazy = lazyNow(load);
    show(Lazy);
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByText('The page')).toBeInTheDocument();
    await Lazy.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
