import { render, screen } from '../../test-utils';
import { UnauthorizedPage } from './UnauthorizedPage';

describe('UnauthorizedPage', () => {
  it('has the spec texts and buttons', () => {
    render(<UnauthorizedPage />);
    expect(screen.getByRole('heading', { name: 'Unauthorized Access' })).toBeInTheDocument();
    expect(
      screen.getByText("You don't have permission to access this resource. Please log in to continue."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/team#contact');
  });
});
