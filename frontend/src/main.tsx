import './app/styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyInitialColorScheme } from './app/colorScheme';
import { preloadScreen } from './app/screens';
import { getAccessToken } from './auth/storage';

applyInitialColorScheme();
// A signed-in screen's data and code are asked for now, before React has rendered anything.
// (Only when signed in: a signed-out visit never downloads the code that sends them.)
if (getAccessToken()) {
  void import('./app/earlyStart');
  preloadScreen(window.location.pathname);
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
