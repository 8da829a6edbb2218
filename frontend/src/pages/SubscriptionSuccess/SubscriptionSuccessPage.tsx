import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function SubscriptionSuccessPage() {
  return <PlaceholderPage title="Thank You for Subscribing" />;
}
