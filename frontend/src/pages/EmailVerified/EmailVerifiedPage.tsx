import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function EmailVerifiedPage() {
  return <PlaceholderPage title="Email Verification" />;
}
