import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function AboutPage() {
  return <PlaceholderPage title="About Percolate" />;
}
