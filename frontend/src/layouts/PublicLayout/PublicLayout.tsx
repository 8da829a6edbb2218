import { Button, Loader } from '@mantine/core';
import { Link } from 'react-router';
import { useAuth } from '../../auth/AuthContext';
import type { NavItem } from '../NavItems';
import { SiteShell } from '../SiteShell/SiteShell';
import { Footer } from './Footer';

/** The public pages' navigation bar (spec §2, landing page). */
function useNavItems(): NavItem[] {
  const { status } = useAuth();
  return [
    { label: 'Home', to: '/' },
    { label: 'Try the AI', to: status === 'authenticated' ? '/dashboard' : '/chat' },
    { label: 'About', to: '/about' },
    { label: 'Team', to: '/team' },
    { label: 'Policies', to: '/privacy' },
  ];
}

/** Login, a spinner while auth loads, or Dashboard when signed in. */
function AccountAction() {
  const { status } = useAuth();
  if (status === 'loading') {
    return <Loader size="sm" role="status" aria-label="Checking sign-in" />;
  }
  if (status === 'authenticated') {
    return (
      <Button component={Link} to="/dashboard">
        Dashboard
      </Button>
    );
  }
  return (
    <Button component={Link} to="/login">
      Login
    </Button>
  );
}

export function PublicLayout() {
  return <SiteShell label="Main" items={useNavItems()} action={<AccountAction />} footer={<Footer />} />;
}
