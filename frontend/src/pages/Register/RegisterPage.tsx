import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function RegisterPage() {
  return <PlaceholderPage title="Create Account" />;
}
