import { BrowserRouter } from 'react-router';
import { registerServiceWorker } from '../pwa/serviceWorker';
import { UpdatePrompt } from '../pwa/UpdatePrompt';
import { AppRoutes } from './AppRoutes';
import { Providers } from './Providers';

// Registered once, when the page has loaded (none in development).
const serviceWorker = registerServiceWorker();

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <UpdatePrompt registration={serviceWorker} />
    </Providers>
  );
}
