import { BrowserRouter } from 'react-router';
import { registerServiceWorker, serviceWorkerRegistration } from '../pwa/serviceWorker';
import { UpdatePrompt } from '../pwa/UpdatePrompt';
import { AppRoutes } from './AppRoutes';
import { Providers } from './Providers';

// An installed app (a worker controls this page) looks for a new version on every page;
// otherwise the signed-in layout installs it (see registerServiceWorker).
if (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller) registerServiceWorker();

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <UpdatePrompt registration={serviceWorkerRegistration} />
    </Providers>
  );
}
