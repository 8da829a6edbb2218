import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function PrivacyPage() {
  return <PlaceholderPage title="Privacy Policy" />;
}
