import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { Providers } from './Providers';

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
