import { render, screen } from '../../test-utils';
import { PrivacyPage } from './PrivacyPage';

describe('PrivacyPage', () => {
  it('covers every section the spec lists', () => {
    render(<PrivacyPage />);
    for (const name of [
      'Information we collect',
      'How we use your information',
      'Cookies',
      'Third parties',
      'Data retention',
      'Your rights',
      'Security',
      'Children under 13',
      'Changes to this policy',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
  });

  it('states the facts of spec §9 and the date', () => {
    render(<PrivacyPage />);
    expect(screen.getByText('Last updated July 29, 2025')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Cookies' })).toHaveTextContent('HTTP-only, Secure and SameSite=None');
    expect(screen.getByRole('region', { name: 'Data retention' })).toHaveTextContent(
      'erased within 30 days of the deletion request',
    );
    expect(screen.getByRole('region', { name: 'Children under 13' })).toHaveTextContent(
      'not directed to children under 13',
    );
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/team#contact');
  });
});
