import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function ProfilePage() {
  return <PlaceholderPage title="Your Profile" />;
}
