import { useEffect, useState } from 'react';
import { Link, Route, Routes } from 'react-router';
import { render, screen, waitFor } from '../test-utils';
import { useRouteFocus } from './useRouteFocus';

/** A page whose heading arrives a moment after the route (a lazy page, its data). */
function LatePage() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), 20);
    return () => clearTimeout(t);
  }, []);
  return ready ? <h1>Late page</h1> : <p>Loading...</p>;
}

/** A page that puts the focus in its own text box, as the chat's composer does. */
function BoxPage() {
  return (
    <>
      <h1>Box page</h1>
      <input aria-label="Message" autoFocus />
    </>
  );
}

function Shell() {
  useRouteFocus();
  return (
    <>
      <nav aria-label="Main">
        <Link to="/one">One</Link>
        <Link to="/late">Late</Link>
        <Link to="/box">Box</Link>
      </nav>
      <main id="main-content" tabIndex={-1}>
        <Routes>
          <Route path="/one" element={<h1>Page one</h1>} />
          <Route path="/late" element={<LatePage />} />
          <Route path="/box" element={<BoxPage />} />
        </Routes>
      </main>
    </>
  );
}

describe('useRouteFocus', () => {
  it("leaves the first page's focus alone, then moves it to each new page's heading", async () => {
    const { user } = render(<Shell />, { route: '/one' });
    expect(screen.getByRole('heading', { name: 'Page one' })).not.toHaveFocus();

    await user.click(screen.getByRole('link', { name: 'Late' }));
    const late = await screen.findByRole('heading', { name: 'Late page' });
    await waitFor(() => expect(late).toHaveFocus());
    // Focusable by script only: not a stop of the Tab key.
    expect(late).toHaveAttribute('tabindex', '-1');

    await user.click(screen.getByRole('link', { name: 'One' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Page one' })).toHaveFocus());
  });

  it('leaves the focus where the new page put it', async () => {
    const { user } = render(<Shell />, { route: '/one' });
    await user.click(screen.getByRole('link', { name: 'Box' }));
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(box).toHaveFocus());
    expect(screen.getByRole('heading', { name: 'Box page' })).not.toHaveFocus();
  });
});
