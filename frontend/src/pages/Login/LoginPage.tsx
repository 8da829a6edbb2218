import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function LoginPage() {
  return <PlaceholderPage title="Sign In" />;
}
