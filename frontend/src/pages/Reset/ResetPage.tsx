import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function ResetPage() {
  return <PlaceholderPage title="Reset Password" />;
}
