import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function TeamPage() {
  return <PlaceholderPage title="Meet the Team" />;
}
