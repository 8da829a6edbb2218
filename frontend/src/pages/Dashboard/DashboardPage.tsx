import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function DashboardPage() {
  return <PlaceholderPage title="Your Sessions" />;
}
