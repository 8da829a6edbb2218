import { PlaceholderPage } from '../../components/PlaceholderPage/PlaceholderPage';

export function ChatPage() {
  return <PlaceholderPage title="New Chat" />;
}
