import { aSignIn, aUser, render, screen } from '../../test-utils';
import { COLOR_SCHEME_STORAGE_KEY } from '../../app/theme';
import { clearSession, setSession, STORAGE_KEYS } from '../../auth/storage';
import { CONTACT_MESSAGE_DAYS, PrivacyPage } from './PrivacyPage';

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
    expect(screen.getByRole('region', { name: 'Your rights' })).toHaveTextContent('Download my data');
    expect(screen.getByRole('region', { name: 'Information we collect' })).toHaveTextContent('turn memory off');
    expect(screen.getByRole('region', { name: 'Cookies' })).toHaveTextContent('HTTP-only, Secure and SameSite=None');
    expect(screen.getByRole('region', { name: 'Data retention' })).toHaveTextContent(
      'erased within 30 days of the deletion request',
    );
    expect(screen.getByRole('region', { name: 'Children under 13' })).toHaveTextContent(
      'not directed to children under 13',
    );
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/team#contact');
  });

  it('names what the model provider receives, sensitive topics included, and how long contact messages stay', () => {
    render(<PrivacyPage />);
    const thirdParties = screen.getByRole('region', { name: 'Third parties' });
    for (const sent of ['your messages', 'your profile text', 'focus areas', 'primary concerns', 'sensitive topics']) {
      expect(thirdParties).toHaveTextContent(sent);
    }
    expect(thirdParties).toHaveTextContent('Your name and e-mail address are never sent.');
    const retention = screen.getByRole('region', { name: 'Data retention' });
    expect(retention).toHaveTextContent(`contact form are kept for ${CONTACT_MESSAGE_DAYS} days`);
    expect(CONTACT_MESSAGE_DAYS).toBe(90);
  });

  it('names the storage keys the client really uses, and no cookie that keeps anyone signed in', () => {
    render(<PrivacyPage />);
    const cookies = screen.getByRole('region', { name: 'Cookies' });
    for (const key of [...Object.values(STORAGE_KEYS), COLOR_SCHEME_STORAGE_KEY]) {
      expect(cookies).toHaveTextContent(key);
    }
    // Whatever signing in really stores is named on the page.
    window.localStorage.clear();
    setSession(aSignIn({ user: aUser({ name: 'Sam', email: 'sam@example.com' }) }));
    const stored = Object.keys(window.localStorage);
    expect(stored.length).toBe(3);
    for (const key of stored) expect(cookies).toHaveTextContent(key);
    clearSession();
    expect(cookies).toHaveTextContent('local storage');
    expect(cookies).toHaveTextContent('The only cookie, percolate_oidc, lives for 10 minutes');
    expect(screen.getByRole('region', { name: 'Data retention' })).toHaveTextContent(
      'never hold your messages, passwords or sign-in tokens',
    );
  });
});
