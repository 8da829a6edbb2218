import { setupServer } from 'msw/node';

/**
 * The MSW server every test shares. It starts with no handlers: each test
 * declares the API answers it relies on with server.use(...), and any request
 * nobody declared fails the test (onUnhandledRequest: 'error' in setup.ts).
 */
export const server = setupServer();
