import { Link, Route, Routes } from 'react-router';
import { render, screen } from '../../test-utils';
import { NotFoundPage } from './NotFoundPage';

describe('NotFoundPage', () => {
  it('says the page is not found and offers a way on', () => {
    render(<NotFoundPage />);
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText("Oops! The page you're looking for doesn't exist or has been moved.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/team#contact');
  });

  it('goes back with Go Back', async () => {
    const { user } = render(
      <Routes>
        <Route path="/about" element={<Link to="/error/404">broken link</Link>} />
        <Route path="/error/404" element={<NotFoundPage />} />
      </Routes>,
      { route: '/about' },
    );
    await user.click(screen.getByRole('link', { name: 'broken link' }));
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go Back' }));

    expect(await screen.findByRole('link', { name: 'broken link' })).toBeInTheDocument();
  });
});
